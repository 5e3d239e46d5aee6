import type { woo } from "ccxt";
import { parseIntervalHours } from "../../model/funding-interval";
import { product, readNumber, runningEstimate, type FundingObservation, type ObservedInterval } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { intervalBetweenSettlements, statedInterval } from "./read-interval";
import { asRecord, indexRows, optional, rowsOf, type VenueAdapter, type CollectContext, type IndexedRows } from "./venue-adapter";

/** WOO X's v3 public answers: `{success, data: {rows: [...]}, timestamp}`. */
function v3Rows(payload: unknown): Record<string, unknown>[] {
  return rowsOf(asRecord(payload)?.data, "rows");
}

/**
 * `estFundingIntervalHours` is the interval of the period settling at `nextFundingTime` (the one
 * `estFundingRate` is for); `lastFundingIntervalHours` is the previous period's, so it says
 * nothing about the current one when the interval just changed. Without the stated hours, the
 * current period runs from `lastFundingRateTimestamp` (the last settlement) to `nextFundingTime`.
 */
export function wooFundingInterval(row: Record<string, unknown>): ObservedInterval | null {
  return (
    statedInterval(parseIntervalHours(row.estFundingIntervalHours)) ??
    intervalBetweenSettlements(row.lastFundingRateTimestamp, row.nextFundingTime)
  );
}

export const wooAdapter: VenueAdapter<woo> = {
  id: "woo",
  // ccxt loads /v3/public/instruments (spot and perpetuals in one list) and has no option to
  // narrow it.
  create: (lib, config) => new lib.woo(clientConfig(config)),
  async collect(exchange, context) {
    const warnings: string[] = [];
    // /v3/public/fundingRate answers every perpetual in one request: the running estimate of the
    // rate settling next, its interval and time, and the last settled rate. /v3/public/futures
    // adds prices, open interest and 24h turnover. Raw calls rather than fetchFundingRates, which
    // would read a garbled answer as an empty list.
    const [fundingPayload, futures] = await Promise.all([
      exchange.v3PublicGetFundingRate(),
      optional(warnings, "futures", async () => indexRows(v3Rows(await exchange.v3PublicGetFutures()), "symbol")),
    ]);
    const rates = v3Rows(fundingPayload);
    // The answer's own time; the rows' `estFundingRateTimestamp` is when the estimate was last
    // recomputed (about a minute earlier), not when the prices beside it were read.
    const answeredAt = readNumber(asRecord(fundingPayload)?.timestamp);
    const observations: FundingObservation[] = [];
    for (const row of rates) observations.push(wooObservation(row, context, futures, answeredAt));
    return { observations, warnings };
  },
};

/** One row of the funding rates, with its prices and open interest from the futures list. */
function wooObservation(row: Record<string, unknown>, { marketsById, fetchedAt }: CollectContext, futures: IndexedRows | undefined, answeredAt: number | undefined): FundingObservation {
  const id = String(row.symbol ?? "");
  const ticker = futures?.get(id);
  const markPrice = readNumber(ticker?.markPrice);
  return {
    symbol: marketsById.get(id)?.symbol ?? id,
    // WOO X quotes the running estimate of the rate settling next and no other.
    ...runningEstimate(readNumber(row.estFundingRate)),
    interval: wooFundingInterval(row),
    nextFundingAt: readNumber(row.nextFundingTime),
    markPrice,
    indexPrice: readNumber(ticker?.indexPrice),
    // `openInterest` is in the base asset; `24hAmount` is the 24h turnover in USDT.
    openInterestUsd: product(readNumber(ticker?.openInterest), markPrice),
    volume24hUsd: readNumber(ticker?.["24hAmount"]),
    observedAt: answeredAt ?? fetchedAt,
  };
}
