import type { IntervalChangeRow } from "../market/model/funding-interval-change";
import { HOUR_MS } from "../market/model/funding-interval";
import type { VenueId } from "../market/model/types";
import { VENUE_REGISTRY } from "../market/venues/venue-registry";
import type { HistoryMarket, HistorySettlement } from "./history-types";

/** How far a gap between settlements may be from a whole interval and still be it (jitter, late stamps). */
export const INTERVAL_TOLERANCE_MS = 5 * 60_000;

/**
 * Intervals a venue's history holds that its markets no longer use: Hyperliquid settled every 8
 * hours until 2023-06-08 and hourly since.
 */
const PAST_INTERVALS: Partial<Record<VenueId, readonly number[]>> = { hyperliquid: [8] };

/** The intervals (hours) a settlement of `venue` may have had, today's and past ones, ascending. */
export function historyIntervals(venue: VenueId): number[] {
  return [...new Set([...VENUE_REGISTRY[venue].intervalsHours, ...(PAST_INTERVALS[venue] ?? [])])].sort((a, b) => a - b);
}

/** The interval of `possible` that `gapMs` is, within tolerance; null when it is none of them. */
function snap(gapMs: number, possible: readonly number[]): number | null {
  return possible.find((hours) => Math.abs(gapMs - hours * HOUR_MS) <= INTERVAL_TOLERANCE_MS) ?? null;
}

/**
 * `settlements` (ascending, one per slot) with every null `intervalHours` filled from the gaps
 * between consecutive settlement times; stated intervals are kept. A gap is the interval it snaps
 * to among `possible`, with three guards: a gap that is no possible interval (16 h) is missing
 * settlements and keeps the running interval; a longer interval that is a whole multiple of the
 * running one (8 h amid 4 h) is taken only when the next gap confirms it, since one missing
 * settlement looks the same; a shorter one is taken at once (no gap can shorten an interval).
 * The first settlements take the first interval found; a series with none stays null.
 */
export function fillIntervals(settlements: readonly HistorySettlement[], possible: readonly number[]): HistorySettlement[] {
  const gapHours = settlements.map((settlement, index) => {
    const before = settlements[index - 1];
    return before === undefined ? null : snap(settlement.time - before.time, possible);
  });
  const derived: (number | null)[] = [];
  let running: number | null = null;
  for (let index = 0; index < settlements.length; index += 1) {
    const hours = gapHours[index] ?? null;
    if (hours !== null && hours !== running) {
      const multiple = running !== null && hours > running && hours % running === 0;
      if (!multiple || gapHours[index + 1] === hours) running = hours;
    }
    derived.push(running);
  }
  const first = derived.find((hours) => hours !== null) ?? null;
  return settlements.map((settlement, index) => ({ ...settlement, intervalHours: settlement.intervalHours ?? derived[index] ?? first }));
}

/** Snapped to the minute: the change's moment is a settlement slot, not the venue's jittered stamp. */
function slotDate(time: number): Date {
  return new Date(Math.round(time / 60_000) * 60_000);
}

/**
 * The interval changes `settlements` (ascending, intervals filled) show for `market`: one row each
 * time the interval differs from the settlement before. The first interval of the new length began
 * at the settlement before the change; the settlement that ended it revealed the change.
 */
export function intervalChangesFromHistory(market: HistoryMarket, settlements: readonly HistorySettlement[]): IntervalChangeRow[] {
  const changes: IntervalChangeRow[] = [];
  for (let index = 1; index < settlements.length; index += 1) {
    const before = settlements[index - 1];
    const settlement = settlements[index];
    if (!before || !settlement || before.intervalHours === null || settlement.intervalHours === null) continue;
    if (before.intervalHours === settlement.intervalHours) continue;
    changes.push({
      exchange: market.exchange,
      market: market.market,
      base: market.base,
      effectiveAt: slotDate(before.time),
      fromHours: before.intervalHours,
      toHours: settlement.intervalHours,
      source: "history",
      detectedAt: slotDate(settlement.time),
    });
  }
  return changes;
}
