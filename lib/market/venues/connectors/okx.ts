import type { okx } from "ccxt";
import { product, readNumber, type FundingObservation } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { intervalBetweenSettlements } from "./read-interval";
import { optionalIndex, rowsOf, type VenueAdapter, type CollectContext, type IndexedRows } from "./venue-adapter";

export const okxAdapter: VenueAdapter<okx> = {
  id: "okx",
  create: (lib, config) => new lib.okx(clientConfig(config, { fetchMarkets: { types: ["swap"] } })),
  async collect(exchange, context) {
    const warnings: string[] = [];
    const swaps = { instType: "SWAP" };
    // Every swap's funding row read raw, as fetchFundingRates requests it (`instId=ANY`): ccxt's
    // parsing of each row, of which only the symbol was read, cost more than reading the row itself.
    const [rates, marks, tickers, openInterest] = await Promise.all([
      exchange.publicGetPublicFundingRate({ instId: "ANY" }),
      optionalIndex(warnings, "mark-price", "instId", () => exchange.publicGetPublicMarkPrice(swaps)),
      optionalIndex(warnings, "tickers", "instId", () => exchange.publicGetMarketTickers(swaps)),
      optionalIndex(warnings, "open-interest", "instId", () => exchange.publicGetPublicOpenInterest(swaps)),
    ]);
    const observations: FundingObservation[] = [];
    for (const row of rowsOf(rates)) observations.push(okxObservation(row, context, marks, tickers, openInterest));
    return { observations, warnings };
  },
};

/** One row of the funding rates, with its mark, ticker and open interest from the other lists. */
function okxObservation(row: Record<string, unknown>, { marketsById, fetchedAt }: CollectContext, marks: IndexedRows | undefined, tickers: IndexedRows | undefined, openInterest: IndexedRows | undefined): FundingObservation {
  const id = String(row.instId ?? "");
  const ticker = tickers?.get(id);
  return {
    symbol: marketsById.get(id)?.symbol ?? id,
    fundingRate: readNumber(row.fundingRate),
    // The forecast of the period after the current one; "" when OKX publishes none (method
    // `current_period`), which reads as absent.
    predictedFundingRate: readNumber(row.nextFundingRate),
    rateCap: readNumber(row.maxFundingRate),
    rateFloor: readNumber(row.minFundingRate),
    // `fundingTime` is the settlement the current rate is paid at, `nextFundingTime` the one
    // after; OKX states no interval, so their distance is the interval.
    interval: intervalBetweenSettlements(row.fundingTime, row.nextFundingTime),
    nextFundingAt: readNumber(row.fundingTime),
    markPrice: readNumber(marks?.get(id)?.markPx),
    indexPrice: undefined,
    openInterestUsd: readNumber(openInterest?.get(id)?.oiUsd),
    // For swaps `volCcy24h` counts the base asset, so dollars need the last price.
    volume24hUsd: product(readNumber(ticker?.volCcy24h), readNumber(ticker?.last)),
    observedAt: readNumber(row.ts) ?? fetchedAt,
  };
}
