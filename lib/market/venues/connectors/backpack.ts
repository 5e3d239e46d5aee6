import type { backpack } from "ccxt";
import { HOUR_MS } from "../../model/funding-interval";
import { product, readNumber, type FundingObservation, type ObservedInterval } from "./build-snapshot";
import { clientConfig, withMarketParams } from "./ccxt-client";
import { asRecord, optionalIndex, rowsOf, type VenueAdapter, type CollectContext, type IndexedRows } from "./venue-adapter";


/**
 * The market's `fundingInterval` in milliseconds (28800000, 3600000; a JSON integer per Backpack's
 * docs, a string in ccxt's recorded markets) as whole hours, or null when absent or not positive.
 */
export function backpackFundingInterval(market: Record<string, unknown>): ObservedInterval | null {
  const ms = readNumber(market.fundingInterval);
  return ms !== undefined && ms > 0 ? { hours: ms / HOUR_MS, source: "venue" } : null;
}

/** Backpack's bounds are basis points (`"100"` = 1 %); 15 significant digits drop float noise. */
function basisPoints(value: number | undefined): number | undefined {
  return value === undefined ? undefined : Number((value / 10_000).toPrecision(15));
}

export const backpackAdapter: VenueAdapter<backpack> = {
  id: "backpack",
  // GET /api/v1/markets returns spot and perpetuals unless `marketType` names one.
  create: (lib, config) => withMarketParams(new lib.backpack(clientConfig(config)), { marketType: "PERP" }),
  async collect(exchange, context) {
    const warnings: string[] = [];
    // markPrices is the funding payload: every perpetual's rate for the current interval, the
    // settlement that ends it, mark and index. The interval and bounds are the markets' fields.
    const [markPrices, openInterest, tickers] = await Promise.all([
      exchange.publicGetApiV1MarkPrices(),
      optionalIndex(warnings, "openInterest", "symbol", () => exchange.publicGetApiV1OpenInterest()),
      optionalIndex(warnings, "tickers", "symbol", () => exchange.publicGetApiV1Tickers()),
    ]);
    const observations: FundingObservation[] = [];
    for (const row of rowsOf(markPrices)) observations.push(backpackObservation(row, context, openInterest, tickers));
    return { observations, warnings };
  },
};

/** One row of the mark prices, its bounds and interval from the market's info, with its open interest and volume from the other lists. */
function backpackObservation(row: Record<string, unknown>, { marketsById, fetchedAt }: CollectContext, openInterest: IndexedRows | undefined, tickers: IndexedRows | undefined): FundingObservation {
  const id = String(row.symbol ?? "");
  const market = marketsById.get(id);
  const info = asRecord(market?.info) ?? {};
  const markPrice = readNumber(row.markPrice);
  return {
    symbol: market?.symbol ?? id,
    fundingRate: readNumber(row.fundingRate),
    // Only the current interval's rate is published.
    predictedFundingRate: undefined,
    rateCap: basisPoints(readNumber(info.fundingRateUpperBound)),
    rateFloor: basisPoints(readNumber(info.fundingRateLowerBound)),
    interval: backpackFundingInterval(info),
    nextFundingAt: readNumber(row.nextFundingTimestamp),
    markPrice,
    indexPrice: readNumber(row.indexPrice),
    // `openInterest` counts the base asset (BTC's reads ~1,300, which only makes sense as coins).
    openInterestUsd: product(readNumber(openInterest?.get(id)?.openInterest), markPrice),
    volume24hUsd: readNumber(tickers?.get(id)?.quoteVolume),
    // markPrices carries no time.
    observedAt: fetchedAt,
  };
}
