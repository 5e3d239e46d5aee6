import type { binance } from "ccxt";
import { intervalsMatchingSchedule, MIDNIGHT_GRID, parseIntervalHours } from "../../model/funding-interval";
import { readNumber, runningEstimate, type FundingObservation, type ObservedInterval } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { optionalIndex, rowsOf, type CollectContext, type IndexedRows, type VenueAdapter } from "./venue-adapter";

/** USDⓈ-M's documented default; `fundingInfo` lists only symbols that deviate from it. */
const DEFAULT_INTERVAL_HOURS = 8;
/** Binance's interest component: 0.03 % a day, split evenly over the day's settlements. */
const INTEREST_PER_DAY = 0.0003;

export interface BinanceIntervalInput {
  /** `fundingIntervalHours` from `GET /fapi/v1/fundingInfo`; undefined when the symbol is absent. */
  fundingInfoHours: number | undefined;
  /** Whether `fundingInfo` answered at all (absence only means "default" when it did). */
  fundingInfoLoaded: boolean;
  /** premiumIndex `nextFundingTime` and `time`, epoch ms. */
  nextFundingTime: number | undefined;
  time: number | undefined;
  /** premiumIndex `interestRate` (per interval). */
  interestRate: number | undefined;
}

/**
 * Binance's premiumIndex carries no interval, so it is read, in order of authority, from:
 * 1. `fundingInfo.fundingIntervalHours`;
 * 2. absence from a loaded `fundingInfo` (the 8h default) — provided the schedule allows 8h;
 * 3. the schedule alone, when `nextFundingTime` against `time` allows exactly one interval;
 * 4. `interestRate` = 0.03 %/day × interval/24h, when it names one of the schedule's candidates
 *    (in the 2025 capture every symbol's interest rate matches its schedule: 0.0000125 ↔ 1h,
 *    0.000025 ↔ 2h, 0.00005 ↔ 4h, 0.0001 ↔ 8h); a zero rate (BNB) names nothing.
 * Otherwise the interval is unknown.
 */
export function binanceFundingInterval(input: BinanceIntervalInput): ObservedInterval | null {
  if (input.fundingInfoHours !== undefined) return { hours: input.fundingInfoHours, source: "venue" };
  const candidates =
    input.nextFundingTime !== undefined && input.time !== undefined
      ? intervalsMatchingSchedule(input.nextFundingTime, input.time, MIDNIGHT_GRID)
      : [];
  if (input.fundingInfoLoaded && candidates.includes(DEFAULT_INTERVAL_HOURS)) {
    return { hours: DEFAULT_INTERVAL_HOURS, source: "venue-default" };
  }
  const [only] = candidates;
  if (only !== undefined && candidates.length === 1) return { hours: only, source: "schedule" };
  if (input.interestRate !== undefined && input.interestRate > 0) {
    const implied = (input.interestRate * 24) / INTEREST_PER_DAY;
    const match = candidates.find((hours) => Math.abs(hours - implied) < 1e-6);
    if (match !== undefined) return { hours: match, source: "interest-rate" };
  }
  return null;
}

export const binanceAdapter: VenueAdapter<binance> = {
  id: "binance",
  create: (lib, config) => new lib.binance(clientConfig(config, { fetchMarkets: { types: ["linear"] } })),
  async collect(exchange, context) {
    const warnings: string[] = [];
    // The premium index read raw, as fetchFundingRates requests it: ccxt's parsing of each row into
    // its funding-rate structure, of which only the symbol was read, was a third of the venue's refresh.
    const [premiumIndex, fundingInfo, tickers] = await Promise.all([
      exchange.fapiPublicGetPremiumIndex(),
      optionalIndex(warnings, "fundingInfo", "symbol", () => exchange.fapiPublicGetFundingInfo()),
      optionalIndex(warnings, "ticker/24hr", "symbol", () => exchange.fapiPublicGetTicker24hr()),
    ]);
    const observations: FundingObservation[] = [];
    for (const row of rowsOf(premiumIndex)) observations.push(binanceObservation(row, context, fundingInfo, tickers));
    return { observations, warnings };
  },
};

/** One row of the premium index, with its bounds and interval from fundingInfo and its volume from the tickers. */
function binanceObservation(row: Record<string, unknown>, { marketsById, fetchedAt }: CollectContext, fundingInfo: IndexedRows | undefined, tickers: IndexedRows | undefined): FundingObservation {
  const id = String(row.symbol ?? "");
  const markPrice = readNumber(row.markPrice);
  const time = readNumber(row.time);
  const nextFundingTime = readNumber(row.nextFundingTime);
  const info = fundingInfo?.get(id);
  return {
    symbol: marketsById.get(id)?.symbol ?? id,
    // The premium index's running estimate of the rate that settles next; Binance quotes no other.
    ...runningEstimate(readNumber(row.lastFundingRate)),
    // Only symbols whose bounds were adjusted are listed; the others' bounds are not published.
    rateCap: readNumber(info?.adjustedFundingRateCap),
    rateFloor: readNumber(info?.adjustedFundingRateFloor),
    interval: binanceFundingInterval({
      fundingInfoHours: parseIntervalHours(info?.fundingIntervalHours) ?? undefined,
      fundingInfoLoaded: fundingInfo !== undefined,
      nextFundingTime,
      time,
      interestRate: readNumber(row.interestRate),
    }),
    nextFundingAt: nextFundingTime,
    markPrice,
    indexPrice: readNumber(row.indexPrice),
    // USDⓈ-M has no all-symbol open-interest endpoint; one call per symbol is not worth it.
    openInterestUsd: undefined,
    volume24hUsd: readNumber(tickers?.get(id)?.quoteVolume),
    observedAt: time ?? fetchedAt,
  };
}
