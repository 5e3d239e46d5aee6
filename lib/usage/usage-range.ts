import { queryError } from "@/lib/query-params";
import { HOUR_MS } from "./usage-recorder";

export const USAGE_GRANULARITIES = ["hour", "day"] as const;
export type UsageGranularity = (typeof USAGE_GRANULARITIES)[number];

const DAY_MS = 24 * HOUR_MS;
/** Usage is kept this long (lib/usage/usage-retention.ts). */
export const USAGE_RETENTION_DAYS = 90;
export const BUCKET_MS: Record<UsageGranularity, number> = { hour: HOUR_MS, day: DAY_MS };
/** The most buckets one answer holds: 7 days of hours, or the 90 days usage is kept. */
export const MAX_BUCKETS: Record<UsageGranularity, number> = { hour: 7 * 24, day: USAGE_RETENTION_DAYS };
/** Without a range: the last 24 hours, or the last 30 days, the current one included. */
export const DEFAULT_BUCKETS: Record<UsageGranularity, number> = { hour: 24, day: 30 };
export const MAX_SPAN_TEXT: Record<UsageGranularity, string> = { hour: "7 days", day: `${USAGE_RETENTION_DAYS} days` };

/** A range of whole UTC hours or days. */
export interface UsageRange {
  granularity: UsageGranularity;
  /** Start of the first bucket. */
  from: Date;
  /** End of the last bucket (exclusive); the last bucket may still be in progress. */
  to: Date;
  /** Each bucket's start, oldest first. */
  buckets: Date[];
}

export interface UsageRangeInput {
  granularity: UsageGranularity;
  /** Inclusive: the bucket holding this instant is the first. */
  from?: Date;
  /** Exclusive: the last bucket is the one holding the instant just before it. */
  to?: Date;
}

const floorTo = (time: number, size: number) => Math.floor(time / size) * size;

/**
 * The buckets a request asks for, in whole UTC hours or days (a day is a UTC day). Without `from`
 * and `to`, the last DEFAULT_BUCKETS up to now; with one of them, that many from or up to it
 * (never past now). Refused with a 400 naming the field: a `from` in the future when `to` is not
 * given, a `to` not after `from`, and more than MAX_BUCKETS buckets.
 */
export function resolveUsageRange(input: UsageRangeInput, now: Date = new Date()): UsageRange {
  const { granularity } = input;
  const size = BUCKET_MS[granularity];
  const span = DEFAULT_BUCKETS[granularity] * size;
  // Without a `to`, the range would end now, before this `from`: the mistake is the `from`.
  if (input.from && !input.to && input.from > now) throw queryError([{ field: "from", message: "Must not be in the future" }]);
  if (input.from && input.to && input.to <= input.from) throw queryError([{ field: "to", message: "Must be after from" }]);

  let first: number;
  let last: number;
  if (input.from) {
    first = floorTo(input.from.getTime(), size);
    last = input.to ? floorTo(input.to.getTime() - 1, size) : floorTo(Math.min(now.getTime(), first + span - 1), size);
  } else {
    last = floorTo((input.to?.getTime() ?? now.getTime() + 1) - 1, size);
    first = last - span + size;
  }
  const count = (last - first) / size + 1;
  if (count > MAX_BUCKETS[granularity]) {
    throw queryError([{ field: input.to ? "to" : "from", message: `The range may span at most ${MAX_SPAN_TEXT[granularity]} at ${granularity} granularity` }]);
  }
  const buckets = Array.from({ length: count }, (_, i) => new Date(first + i * size));
  return { granularity, from: new Date(first), to: new Date(last + size), buckets };
}
