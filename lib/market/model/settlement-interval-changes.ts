import type { FundingIntervalChange } from "./funding-interval-change";
import type { FundingSettlement } from "./funding-settlement";

/**
 * The interval changes a leg's settlement series shows: one each time a settlement's interval
 * differs from the one before it (settlements of unknown interval are skipped, not read as a
 * change). As lib/history/derive-intervals.ts dates them, the first interval of the new length
 * began at the settlement before the change, and the settlement that ended it revealed it; the
 * source is `history`, since they are read from settlements rather than stated by the venue.
 * Sorted by time here, so the caller's order does not matter. Pure.
 */
export function intervalChangesInSettlements(settlements: readonly FundingSettlement[]): FundingIntervalChange[] {
  const known = settlements.filter((s) => s.funding_interval_hours !== null).sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  const changes: FundingIntervalChange[] = [];
  for (let index = 1; index < known.length; index += 1) {
    const before = known[index - 1]!;
    const settlement = known[index]!;
    if (before.funding_interval_hours === settlement.funding_interval_hours) continue;
    changes.push({
      exchange: settlement.exchange,
      market: settlement.market,
      symbol: settlement.symbol,
      effective_at: new Date(Date.parse(before.time)).toISOString(),
      from_hours: before.funding_interval_hours!,
      to_hours: settlement.funding_interval_hours!,
      source: "history",
      detected_at: new Date(Date.parse(settlement.time)).toISOString(),
    });
  }
  return changes;
}

const HOUR_MS = 3_600_000;

/**
 * A leg's interval changes in a window: the stored ones (what ingestion and backfills detected),
 * and those its settlements show that no stored change already accounts for (the offline sample's
 * recorded history, and settlements stored before a detector existed, have no stored change).
 * A stored change is the same one when it has the same lengths and is dated within the longer
 * interval: ingestion dates a change by the running interval's start as the venue's schedule
 * showed it, the settlements by their own (jittered) times. Oldest first. Pure.
 */
export function legIntervalChanges(stored: readonly FundingIntervalChange[], settlements: readonly FundingSettlement[]): FundingIntervalChange[] {
  const derived = intervalChangesInSettlements(settlements).filter(
    (change) =>
      !stored.some(
        (s) =>
          s.from_hours === change.from_hours &&
          s.to_hours === change.to_hours &&
          Math.abs(Date.parse(s.effective_at) - Date.parse(change.effective_at)) <=
            Math.max(s.from_hours, s.to_hours) * HOUR_MS,
      ),
  );
  return [...stored, ...derived].sort((a, b) => Date.parse(a.effective_at) - Date.parse(b.effective_at));
}
