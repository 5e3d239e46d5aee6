import type { IntervalChangeRow } from "@/lib/market/model/funding-interval-change";
import type { HistoryMarket, HistorySettlement } from "./history-types";

const HOUR = 3_600_000;

/** The intervals venues settle on, in hours: a gap between two settlements is snapped to one of these. */
export const POSSIBLE_INTERVAL_HOURS = [1, 2, 4, 8] as const;

/** How far a gap may stray from an interval and still be it: venues stamp settlements a few ms to a few s late. */
const JITTER = 0.02;

/** The interval a gap of `hours` is, or null when it is none of them (a gap of missing settlements, 16 h, 3 h). */
export function snapInterval(hours: number): number | null {
  for (const interval of POSSIBLE_INTERVAL_HOURS) if (Math.abs(hours - interval) <= interval * JITTER) return interval;
  return null;
}

/** Whether a gap of `hours` is whole intervals of `interval` (settlements missing from the answer). */
function isMultiple(hours: number, interval: number): boolean {
  const times = Math.round(hours / interval);
  return times >= 2 && Math.abs(hours - times * interval) <= interval * JITTER;
}

/**
 * Each settlement's interval where the venue does not state it, from the gaps between consecutive
 * settlement times (ascending, deduplicated). A settlement pays for the interval that ends at it,
 * so its interval is the gap since the one before; the first, with no settlement before it (`before`:
 * the stored settlement just older, if any), takes the gap to the next. A gap that is whole intervals
 * of what both its neighbours settle on is settlements missing from the answer, not a longer interval
 * (a change of interval has neighbours that differ); a gap no interval matches and no neighbour
 * explains stays unknown (null).
 */
export function deriveIntervalHours(settlements: readonly HistorySettlement[], before: { time: number } | null = null): HistorySettlement[] {
  const times = settlements.map((s) => s.time);
  const gap = (i: number): number | null => {
    if (i < 0 || i >= times.length) return null;
    const previous = i === 0 ? before?.time : times[i - 1];
    return previous === undefined ? null : (times[i]! - previous) / HOUR;
  };
  const snapped = (i: number): number | null => {
    const hours = gap(i);
    return hours === null ? null : snapInterval(hours);
  };
  return settlements.map((settlement, i) => {
    if (settlement.intervalHours !== null) return settlement;
    const own = gap(i);
    const previous = snapped(i - 1);
    const next = snapped(i + 1);
    if (own === null) return { ...settlement, intervalHours: next };
    // Both neighbours settle on an interval that divides this gap: settlements are missing (8 h in a 4 h schedule).
    if (previous !== null && previous === next && isMultiple(own, previous)) return { ...settlement, intervalHours: previous };
    const exact = snapInterval(own);
    if (exact !== null) return { ...settlement, intervalHours: exact };
    // Not an interval: settlements missing, when a neighbour's interval divides the gap.
    const neighbour = [previous, next].find((hours) => hours !== null && isMultiple(own, hours)) ?? null;
    return { ...settlement, intervalHours: neighbour };
  });
}

/**
 * The interval changes a run of settlements shows (ascending, intervals filled), each effective when
 * the first interval of the new length began: the settlement before it. `before` is the stored
 * settlement just older than the run, so a change at the run's first settlement is found too.
 */
export function intervalChangesFromHistory(
  market: HistoryMarket,
  settlements: readonly HistorySettlement[],
  detectedAt: Date,
  before: HistorySettlement | null = null,
): IntervalChangeRow[] {
  const changes: IntervalChangeRow[] = [];
  let previous = before;
  for (const settlement of settlements) {
    const from = previous?.intervalHours ?? null;
    const to = settlement.intervalHours;
    if (previous && from !== null && to !== null && from !== to) {
      changes.push({
        exchange: market.exchange,
        market: market.market,
        base: market.base,
        effectiveAt: new Date(previous.time),
        fromHours: from,
        toHours: to,
        source: "history",
        detectedAt,
      });
    }
    if (to !== null) previous = settlement;
  }
  return changes;
}
