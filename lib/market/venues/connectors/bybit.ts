import type { bybit } from "ccxt";
import { parseIntervalHours } from "../../model/funding-interval";
import { readNumber, symmetricBounds, type FundingObservation, type ObservedInterval } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { asRecord, rowsOf, type VenueAdapter, type CollectContext } from "./venue-adapter";

/**
 * Bybit states the interval twice: the ticker's `fundingIntervalHour` (hours, as a string) and the
 * instrument's `fundingInterval` (minutes). The ticker is fetched on every refresh, so it wins.
 */
export function bybitFundingInterval(
  ticker: Record<string, unknown>,
  instrument: Record<string, unknown> | undefined,
): ObservedInterval | null {
  const fromTicker = parseIntervalHours(ticker.fundingIntervalHour);
  if (fromTicker !== null) return { hours: fromTicker, source: "venue" };
  const minutes = readNumber(instrument?.fundingInterval);
  if (minutes !== undefined && minutes > 0) return { hours: minutes / 60, source: "venue" };
  return null;
}

/**
 * The instrument states both bounds (`upperFundingRate`, `lowerFundingRate`); the ticker only a
 * symmetric `fundingCap`, used when the instrument says nothing.
 */
export function bybitRateBounds(
  ticker: Record<string, unknown>,
  instrument: Record<string, unknown> | undefined,
): { rateCap: number | undefined; rateFloor: number | undefined } {
  const upper = readNumber(instrument?.upperFundingRate);
  const lower = readNumber(instrument?.lowerFundingRate);
  if (upper !== undefined || lower !== undefined) return { rateCap: upper, rateFloor: lower };
  return symmetricBounds(readNumber(ticker.fundingCap));
}

export const bybitAdapter: VenueAdapter<bybit> = {
  id: "bybit",
  create: (lib, config) => new lib.bybit(clientConfig(config, { fetchMarkets: { types: ["linear"] } })),
  async collect(exchange, context) {
    // One call carries everything: /v5/market/tickers?category=linear has rate, next settlement,
    // interval, prices, open interest value and 24h turnover for every linear contract.
    // Read raw, as fetchFundingRates requests it: ccxt's parsing of each row, of which only the
    // symbol and the answer's time were read, was a third of the venue's refresh; and ccxt reads
    // an answer without its list as an empty one, where this makes the venue stale.
    const answer = asRecord(await exchange.publicGetV5MarketTickers({ category: "linear" }));
    const time = readNumber(answer?.time);
    const observations: FundingObservation[] = [];
    for (const row of rowsOf(answer?.result, "list")) observations.push(bybitObservation(row, context, time));
    return { observations, warnings: [] };
  },
};

/** One row of the linear tickers, its bounds and interval from the market's instrument. */
function bybitObservation(row: Record<string, unknown>, { marketsById, fetchedAt }: CollectContext, time: number | undefined): FundingObservation {
  const id = String(row.symbol ?? "");
  const market = marketsById.get(id);
  const instrument = asRecord(market?.info);
  return {
    symbol: market?.symbol ?? id,
    fundingRate: readNumber(row.fundingRate),
    ...bybitRateBounds(row, instrument),
    interval: bybitFundingInterval(row, instrument),
    nextFundingAt: readNumber(row.nextFundingTime),
    markPrice: readNumber(row.markPrice),
    indexPrice: readNumber(row.indexPrice),
    openInterestUsd: readNumber(row.openInterestValue),
    volume24hUsd: readNumber(row.turnover24h),
    observedAt: time ?? fetchedAt,
  };
}
