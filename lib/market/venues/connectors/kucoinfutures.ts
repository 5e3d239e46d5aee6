import type { kucoinfutures } from "ccxt";
import { HOUR_MS } from "../../model/funding-interval";
import { product, readNumber, type FundingObservation, type ObservedInterval } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { indexRows, optionalIndex, rowsOf, type VenueAdapter, type CollectContext, type IndexedRows } from "./venue-adapter";

/** Settlements fall on whole UTC hours; a countdown read against our clock lands within this of one. */
const COUNTDOWN_TOLERANCE_MS = 60_000;

/**
 * The interval in milliseconds (28800000 = 8h, 14400000 = 4h, 3600000 = 1h). KuCoin states two:
 * `currentFundingRateGranularity`, the interval of the period in force, and
 * `fundingRateGranularity`, the contract's configured one, which already names a new interval
 * before the current period (settled on the old one) ends. The one in force is read first.
 */
export function kucoinFundingInterval(contract: Record<string, unknown>): ObservedInterval | null {
  for (const field of ["currentFundingRateGranularity", "fundingRateGranularity"] as const) {
    const granularityMs = readNumber(contract[field]);
    if (granularityMs !== undefined && granularityMs > 0) return { hours: granularityMs / HOUR_MS, source: "venue" };
  }
  return null;
}

/**
 * The next settlement. Current contract rows state it as `nextFundingRateDateTime` (epoch ms); older
 * ones only as `nextFundingRateTime`, which is the milliseconds REMAINING until it, not a time. A
 * countdown is turned into a time against the refresh's clock and put on the whole hour it names
 * (the request's latency is the only error), or left as computed when no hour is that close.
 */
export function kucoinNextSettlement(contract: Record<string, unknown>, fetchedAt: number): number | undefined {
  const stated = readNumber(contract.nextFundingRateDateTime);
  if (stated !== undefined) return stated;
  const remainingMs = readNumber(contract.nextFundingRateTime);
  if (remainingMs === undefined) return undefined;
  const at = fetchedAt + remainingMs;
  const hour = Math.round(at / HOUR_MS) * HOUR_MS;
  return Math.abs(at - hour) <= COUNTDOWN_TOLERANCE_MS ? hour : Math.round(at);
}

export const kucoinfuturesAdapter: VenueAdapter<kucoinfutures> = {
  id: "kucoinfutures",
  create: (lib, config) =>
    // Contracts only (GET /api/v1/contracts/active); no spot symbols, no spot tickers for fees.
    new lib.kucoinfutures(clientConfig(config, { fetchMarkets: { types: ["swap"], fetchTickersFees: false } })),
  async collect(exchange, context) {
    const warnings: string[] = [];
    // The active contract list (GET /api/v1/contracts/active, the request ccxt's fetchMarkets
    // makes) is the funding payload: every contract's rate (`fundingFeeRate`), forecast, interval,
    // next settlement, prices, open interest and turnover. It is requested here on every refresh,
    // raw, so the rates are fresh while ccxt's parsed market list (the unified symbols) is reused;
    // a contract the loaded list lacks keeps its id as its symbol, is counted unlisted and has the
    // list reloaded. Only the bounds are elsewhere: the unified-account funding list states them
    // for every contract in one call (the futures API states them one contract at a time).
    const [contracts, bounds] = await Promise.all([
      exchange.futuresPublicGetContractsActive().then((payload) => indexRows(rowsOf(payload), "symbol")),
      optionalIndex(warnings, "funding-rate bounds", "symbol", () => exchange.utaV2GetMarketFundingRate()),
    ]);
    const observations: FundingObservation[] = [];
    for (const [id, row] of contracts) observations.push(kucoinObservation(id, row, context, bounds));
    return { observations, warnings };
  },
};

/** One active contract, with its rate's bounds from the funding-rate list. */
function kucoinObservation(id: string, row: Record<string, unknown>, { marketsById, fetchedAt }: CollectContext, bounds: IndexedRows | undefined): FundingObservation {
  const markPrice = readNumber(row.markPrice);
  // Inverse contracts state a negative multiplier; ccxt's contract size is its magnitude.
  const multiplier = readNumber(row.multiplier);
  const bound = bounds?.get(id);
  return {
    symbol: marketsById.get(id)?.symbol ?? id,
    fundingRate: readNumber(row.fundingFeeRate),
    // KuCoin's estimate of the rate after the current one; null on most rows today.
    predictedFundingRate: readNumber(row.predictedFundingFeeRate),
    rateCap: readNumber(bound?.fundingRateCap),
    rateFloor: readNumber(bound?.fundingRateFloor),
    interval: kucoinFundingInterval(row),
    nextFundingAt: kucoinNextSettlement(row, fetchedAt),
    markPrice,
    indexPrice: readNumber(row.indexPrice),
    // `openInterest` counts contracts of `multiplier` base units each.
    openInterestUsd: product(product(readNumber(row.openInterest), multiplier === undefined ? undefined : Math.abs(multiplier)), markPrice),
    // `turnoverOf24h` is the quote-currency turnover (USDT/USDC on linear contracts).
    volume24hUsd: readNumber(row.turnoverOf24h),
    // The contract list carries no time of its own.
    observedAt: fetchedAt,
  };
}
