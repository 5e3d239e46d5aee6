import type { IntervalChangeRow } from "../model/funding-interval-change";
import type { MarketSnapshot } from "../model/types";
import type { PreviousObservation } from "./derive-settlements";
import { indexByMarket } from "./market-index";

/**
 * Changes of funding interval between the previous observation of each market and this round's:
 * both known and different. An interval that becomes unknown, or is learnt for the first time,
 * is not a change (nothing says the venue changed anything). Pure.
 *
 * When it took effect: venues move a market to a new interval at a settlement, so the change is
 * dated at the start of the interval now running, the next settlement minus the new length (an 8h
 * market seen at 08:38 with its next settlement at 09:00 has run hourly since 08:00). That is
 * never put before the previous observation, which still showed the old length, nor after this
 * one; without a next settlement time the change is dated when it was seen.
 */
export function detectIntervalChanges(
  previous: readonly PreviousObservation[],
  current: readonly MarketSnapshot[],
): IntervalChangeRow[] {
  const before = indexByMarket(previous, (p) => p);
  const rows: IntervalChangeRow[] = [];
  for (const s of current) {
    const p = before(s.exchange, s.market);
    const from = p?.fundingIntervalHours ?? null;
    const to = s.fundingIntervalHours;
    if (!p || from === null || to === null || s.fundingIntervalSource === null || from === to) continue;
    const started = s.nextFundingAt === null ? s.observedAt : s.nextFundingAt - to * 3_600_000;
    const effectiveAt = Math.min(s.observedAt, Math.max(p.observedAt + 1, started));
    rows.push({
      exchange: s.exchange,
      market: s.market,
      base: s.base,
      effectiveAt: new Date(effectiveAt),
      fromHours: from,
      toHours: to,
      source: s.fundingIntervalSource,
      detectedAt: new Date(s.observedAt),
    });
  }
  return rows;
}
