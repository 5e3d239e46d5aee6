import type { MarketSnapshot } from "../model/types";
import { indexByMarket } from "./market-index";

/** What the previous round saw of a market: enough to know which rate its next settlement used. */
export interface PreviousObservation {
  exchange: string;
  market: string;
  base: string;
  fundingRate: number | null;
  fundingIntervalHours: number | null;
  nextFundingAt: number | null;
  observedAt: number;
}

export interface SettlementRow {
  exchange: string;
  market: string;
  base: string;
  time: Date;
  rate: number;
  intervalHours: number | null;
  source: "observed";
}

/**
 * Settlements that happened between the previous observation of each market and this round: when
 * the previous round's `nextFundingAt` has passed by the time of the new observation, the venue
 * settled at that time with (as far as this service saw) the last rate it quoted for that interval.
 * That makes these "observed" settlements: venues can move the rate in the final seconds before
 * settling, and settlements missed while a venue was stale for longer than an interval are not
 * invented. Pure.
 */
export function deriveSettlements(
  previous: readonly PreviousObservation[],
  current: readonly MarketSnapshot[],
): SettlementRow[] {
  // No settlement can be later than the newest observation: most previous ones are still to come,
  // and are passed over before their market is looked up.
  let newest = Number.NEGATIVE_INFINITY;
  for (const s of current) if (s.observedAt > newest) newest = s.observedAt;
  let observedNowOf: ((exchange: string, market: string) => number | undefined) | undefined;
  const rows: SettlementRow[] = [];
  for (const p of previous) {
    if (p.fundingRate === null || p.nextFundingAt === null || p.nextFundingAt <= p.observedAt || p.nextFundingAt > newest) continue;
    observedNowOf ??= indexByMarket(current, (s) => s.observedAt);
    const observedNow = observedNowOf(p.exchange, p.market);
    if (observedNow === undefined || p.nextFundingAt > observedNow) continue;
    rows.push({
      exchange: p.exchange,
      market: p.market,
      base: p.base,
      time: new Date(p.nextFundingAt),
      rate: p.fundingRate,
      intervalHours: p.fundingIntervalHours,
      source: "observed",
    });
  }
  return rows;
}
