import type { mexc } from "ccxt";
import { parseIntervalHours } from "../../model/funding-interval";
import { product, readNumber, type FundingObservation } from "./build-snapshot";
import { clientConfig, loadMarketsWith } from "./ccxt-client";
import { statedInterval } from "./read-interval";
import { optionalIndex, rowsOf, type VenueAdapter, type CollectContext, type IndexedRows } from "./venue-adapter";

/** A venue time that is unusable only costs the extra it came with. */
function usableTime(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}

export const mexcAdapter: VenueAdapter<mexc> = {
  id: "mexc",
  // ccxt's mexc.fetchMarkets always loads the spot exchangeInfo beside the contract list and has
  // no option to skip it; the contract list (GET /api/v1/contract/detail) is ccxt's own
  // fetchSwapMarkets, so this client loads that alone.
  create: (lib, config) =>
    loadMarketsWith(new lib.mexc(clientConfig(config)), (exchange, params) => exchange.fetchSwapMarkets(params)),
  async collect(exchange, context) {
    const warnings: string[] = [];
    // GET /api/v1/contract/funding_rate without a symbol answers every contract: rate, interval
    // (`collectCycle`, hours), next settlement (ms), bounds and the venue's time. ccxt's API table
    // only has the one-symbol form, so the request goes through ccxt's generic `request`.
    // The all-contract ticker adds fair (mark) and index prices, open interest and turnover.
    const [fundingPayload, tickers] = await Promise.all([
      exchange.request("funding_rate", ["contract", "public"], "GET", {}),
      optionalIndex(warnings, "ticker", "symbol", () => exchange.contractPublicGetTicker()),
    ]);
    const observations: FundingObservation[] = [];
    for (const row of rowsOf(fundingPayload)) observations.push(mexcObservation(row, context, tickers));
    return { observations, warnings };
  },
};

/** One row of the funding rates, with its prices and volumes from the tickers. */
function mexcObservation(row: Record<string, unknown>, { marketsById, fetchedAt }: CollectContext, tickers: IndexedRows | undefined): FundingObservation {
  const id = String(row.symbol ?? "");
  const market = marketsById.get(id);
  const ticker = tickers?.get(id);
  const markPrice = readNumber(ticker?.fairPrice);
  const cycleHours = parseIntervalHours(row.collectCycle);
  return {
    symbol: market?.symbol ?? id,
    fundingRate: readNumber(row.fundingRate),
    rateCap: readNumber(row.maxFundingRate),
    rateFloor: readNumber(row.minFundingRate),
    interval: statedInterval(cycleHours),
    nextFundingAt: readNumber(row.nextSettleTime),
    markPrice,
    indexPrice: readNumber(ticker?.indexPrice),
    // `holdVol` counts contracts of `contractSize` base units each.
    openInterestUsd: product(product(readNumber(ticker?.holdVol), readNumber(market?.contractSize)), markPrice),
    // `amount24` is the 24h turnover in the quote currency.
    volume24hUsd: readNumber(ticker?.amount24),
    // The prices are the ticker's, so its time; else the funding row's.
    observedAt: usableTime(readNumber(ticker?.timestamp)) ?? readNumber(row.timestamp) ?? fetchedAt,
  };
}
