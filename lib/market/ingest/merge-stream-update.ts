import type { MarketSnapshot } from "../model/types";
import type { StreamFields, StreamUpdate } from "../venues/streams/stream-protocol";

/** The fields a stream message may carry, in the order they are compared. */
export const STREAM_FIELDS = ["fundingRate", "predictedFundingRate", "nextFundingAt", "markPrice", "indexPrice"] as const satisfies readonly (keyof StreamFields)[];

/**
 * Whether `value` may stand in its field of a MarketSnapshot (marketSnapshotSchema): any finite
 * rate, a whole non-negative time, a positive price, or the venue's `null`. A protocol that lets
 * something else through would otherwise publish a leg the schema refuses.
 */
function acceptable(field: (typeof STREAM_FIELDS)[number], value: number | null): boolean {
  if (value === null) return true;
  if (!Number.isFinite(value)) return false;
  if (field === "nextFundingAt") return Number.isInteger(value) && value >= 0;
  if (field === "markPrice" || field === "indexPrice") return value > 0;
  return true;
}

/**
 * One market's snapshot after a stream message: the base (the last round's snapshot, with the
 * messages merged since) with the message's present fields over it, `transport: "stream"`, and
 * `observedAt` the venue's time for the message, else its arrival. Everything a stream never
 * carries (the interval and its source, caps, open interest, volume, fee) stays the round's.
 * Undefined when the message changes no value: an unchanged frame publishes nothing.
 *
 * A message the venue timed before the base's own stream message is older news and changes
 * nothing; against a round's snapshot the times are not compared, since a REST answer's time is
 * often the moment it was fetched rather than the venue's.
 */
export function mergeStreamUpdate(base: MarketSnapshot, update: StreamUpdate, receivedAt: number): MarketSnapshot | undefined {
  const observedAt = Math.round(update.venueTime ?? receivedAt);
  if (base.transport === "stream" && observedAt < base.observedAt) return undefined;
  let merged: MarketSnapshot | undefined;
  for (const field of STREAM_FIELDS) {
    const value = update.fields[field];
    if (value === undefined || !acceptable(field, value) || (base[field] ?? null) === value) continue;
    merged ??= { ...base };
    merged[field] = value;
  }
  if (!merged) return undefined;
  merged.observedAt = Math.max(0, observedAt);
  merged.transport = "stream";
  return merged;
}

export interface MergedUpdates {
  /** The snapshots the updates changed, one per market (the last of several updates of one market wins). */
  changed: MarketSnapshot[];
  /** Updates of markets the base does not hold: markets the round did not list. */
  unknown: number;
}

/**
 * Merges one frame's updates into `bases` (venueMarketId → snapshot), which then hold the merged
 * snapshots, so the next frame's deltas compare with what this one left.
 */
export function mergeStreamUpdates(bases: Map<string, MarketSnapshot>, updates: readonly StreamUpdate[], receivedAt: number): MergedUpdates {
  const changed = new Map<string, MarketSnapshot>();
  let unknown = 0;
  for (const update of updates) {
    const base = bases.get(update.venueMarketId);
    if (!base) {
      unknown++;
      continue;
    }
    const merged = mergeStreamUpdate(base, update, receivedAt);
    if (!merged) continue;
    bases.set(update.venueMarketId, merged);
    changed.set(update.venueMarketId, merged);
  }
  return { changed: [...changed.values()], unknown };
}

/** The fields of a snapshot whose change is news: all but when and how it was observed, and what the round adds from history. */
export const VALUE_FIELDS = [
  "fundingRate",
  "predictedFundingRate",
  "rateCap",
  "rateFloor",
  "fundingIntervalHours",
  "fundingIntervalSource",
  "nextFundingAt",
  "markPrice",
  "indexPrice",
  "openInterestUsd",
  "volume24hUsd",
  "takerFee",
  "contractMultiplier",
  "market",
  "base",
] as const satisfies readonly (keyof MarketSnapshot)[];

/** Whether a polled snapshot says anything its base did not. */
export function valuesDiffer(base: MarketSnapshot, polled: MarketSnapshot): boolean {
  return VALUE_FIELDS.some((field) => (base[field] ?? null) !== (polled[field] ?? null));
}
