import type { weex } from "ccxt";
import { readNumber, runningEstimate, type FundingObservation, type ObservedInterval } from "./build-snapshot";
import { clientConfig, loadMarketsWith } from "./ccxt-client";
import { statedInterval, statedMinutes } from "./read-interval";
import { asRecord, optionalIndex, rowsOf, type VenueAdapter, type CollectContext, type IndexedRows } from "./venue-adapter";

const DAY_SECONDS = 86_400;

/**
 * The interval a contract's `delivery` times state (`["00:00:00", "08:00:00", "16:00:00"]`: the
 * settlements of the day, UTC): their spacing, when it is one whole number of hours round the clock.
 */
export function deliveryInterval(delivery: unknown): ObservedInterval | null {
  if (!Array.isArray(delivery) || delivery.length === 0) return null;
  const seconds: number[] = [];
  for (const time of delivery) {
    const match = typeof time === "string" ? /^(\d{2}):(\d{2}):(\d{2})$/.exec(time) : null;
    if (!match) return null;
    seconds.push(Number(match[1]) * 3_600 + Number(match[2]) * 60 + Number(match[3]));
  }
  seconds.sort((a, b) => a - b);
  const [first = 0] = seconds;
  const gaps = seconds.map((at, i) => (seconds[i + 1] ?? first + DAY_SECONDS) - at);
  const [gap = 0] = gaps;
  if (gap <= 0 || gap % 3_600 !== 0 || gaps.some((g) => g !== gap)) return null;
  return statedInterval(gap / 3_600);
}

/** `collectCycle` (minutes, the interval of the period settling next); else the contract's `delivery` times. */
export function weexFundingInterval(row: Record<string, unknown>, contract: Record<string, unknown> | undefined): ObservedInterval | null {
  return statedMinutes(row.collectCycle) ?? deliveryInterval(contract?.delivery);
}

export const weexAdapter: VenueAdapter<weex> = {
  id: "weex",
  // ccxt's fetchMarkets loads the spot exchangeInfo beside the contract one and has no option to
  // skip it: only the contract list (`GET /capi/v3/market/exchangeInfo`) is loaded, parsed by
  // ccxt's own parseMarket (a row with a `marginAsset` is a perpetual, linear when it is the quote).
  create: (lib, config) =>
    loadMarketsWith(new lib.weex(clientConfig(config)), async (exchange, params) =>
      exchange.parseMarkets(rowsOf(await exchange.contractGetCapiV3MarketExchangeInfo(params), "symbols")),
    ),
  async collect(exchange, context) {
    const warnings: string[] = [];
    // `premiumIndex` answers every contract at once: mark, index, both rates, the next settlement
    // and the interval. The 24h tickers add the quote volume; their failure costs only that. Open
    // interest is served one contract a request (`openInterest?symbol=`), so it is not read.
    const [premiumIndex, tickers] = await Promise.all([
      exchange.contractGetCapiV3MarketPremiumIndex(),
      optionalIndex(warnings, "ticker/24hr", "symbol", () => exchange.contractGetCapiV3MarketTicker24hr()),
    ]);
    const observations: FundingObservation[] = [];
    for (const row of rowsOf(premiumIndex)) observations.push(weexObservation(row, context, tickers));
    return { observations, warnings };
  },
};

/** One row of the premium index, with its volume from the tickers. */
function weexObservation(row: Record<string, unknown>, { marketsById, fetchedAt }: CollectContext, tickers: IndexedRows | undefined): FundingObservation {
  const id = String(row.symbol ?? "");
  const market = marketsById.get(id);
  const observedAt = readNumber(row.time);
  return {
    symbol: market?.symbol ?? id,
    // `forecastFundingRate` is the running estimate of the rate settling at `nextFundingTime`;
    // `lastFundingRate` is the rate the last settlement paid, though ccxt reads it as the current
    // rate: its documented ETHUSDT row's 0.00001031 is what ccxt's documented funding history
    // row settled at 16:00Z, before that row's 00:00Z `nextFundingTime`. The row does not date
    // that settlement, so it is not served as one: the rounds see each settlement happen.
    ...runningEstimate(readNumber(row.forecastFundingRate)),
    interval: weexFundingInterval(row, asRecord(market?.info)),
    nextFundingAt: readNumber(row.nextFundingTime),
    markPrice: readNumber(row.markPrice),
    indexPrice: readNumber(row.indexPrice),
    openInterestUsd: undefined,
    // `quoteVolume` is the 24h turnover in USDT.
    volume24hUsd: readNumber(tickers?.get(id)?.quoteVolume),
    observedAt: observedAt ?? fetchedAt,
  };
}
