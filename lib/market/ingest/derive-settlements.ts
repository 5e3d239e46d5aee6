import type { MarketSnapshot } from "../types";

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
  const seenNow = new Map<string, number>();
  for (const s of current) seenNow.set(`${s.exchange}\u0000${s.market}`, s.observedAt);
  const rows: SettlementRow[] = [];
  for (const p of previous) {
    const observedNow = seenNow.get(`${p.exchange}\u0000${p.market}`);
    if (observedNow === undefined || p.fundingRate === null || p.nextFundingAt === null) continue;
    if (p.nextFundingAt <= p.observedAt || p.nextFundingAt > observedNow) continue;
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
