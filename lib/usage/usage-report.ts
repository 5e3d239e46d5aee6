import { z } from "zod";
import { KEY_MODES, type KeyMode } from "@/lib/keys/mode";
import { addCounts, emptyCounts, usageCountsSchema, type UsageCounts } from "./usage-counts";
import { USAGE_GRANULARITIES, type UsageRange } from "./usage-range";
import type { UsageRow } from "./usage-recorder";

const bucketSchema = usageCountsSchema.extend({
  start: z.iso.datetime().describe("ISO 8601 UTC start of the hour or day (UTC days)."),
});

const keyBucketSchema = bucketSchema.extend({
  peak_per_minute: z
    .number()
    .int()
    .nonnegative()
    .describe("The most requests the key made in one clock minute of this bucket (its limit, if it was refused)."),
});

const routeCountsSchema = usageCountsSchema.extend({
  route: z.string().describe('Method and path, e.g. "GET /v1/opportunities/{id}"; "(unknown route)" for paths that match none.'),
});

const keyUsageSchema = z.object({
  id: z.string().describe("The key's id."),
  name: z.string().describe("The key's name."),
  prefix: z.string().describe("The key's prefix, as the account area shows it."),
  mode: z.enum(KEY_MODES).describe("live or test."),
  active: z.boolean().describe("False once the key is revoked or expired; such keys are listed while they have usage in the range."),
  totals: usageCountsSchema.describe("The key's requests over the whole range."),
  peak_per_minute: z.number().int().nonnegative().describe("The most requests the key made in one clock minute of the range."),
  limit_per_minute: z.number().int().positive().describe("The key's rate limit: requests per minute its account's plan allows now."),
  buckets: z.array(keyBucketSchema).describe("One entry per hour or day of the range, oldest first, empty ones included."),
  routes: z.array(routeCountsSchema).describe("The key's requests per route over the range, busiest first."),
});

export const usageReportSchema = z.object({
  granularity: z.enum(USAGE_GRANULARITIES).describe("The size of each bucket."),
  from: z.iso.datetime().describe("ISO 8601 UTC start of the first bucket."),
  to: z.iso.datetime().describe("ISO 8601 UTC end of the last bucket (exclusive); the last one may still be in progress."),
  totals: usageCountsSchema.describe("Every request made with the account's keys over the range."),
  buckets: z.array(bucketSchema).describe("The account's requests per hour or day, oldest first, empty ones included."),
  routes: z.array(routeCountsSchema).describe("The account's requests per route over the range, busiest first."),
  keys: z
    .array(keyUsageSchema)
    .describe("Each key of the account that is active or was used in the range (live and test alike), busiest first."),
});
export type UsageReport = z.infer<typeof usageReportSchema>;
export type KeyUsage = z.infer<typeof keyUsageSchema>;

/** One row of usage as the database sums it: one key's requests on one route in one bucket. */
/** Stored usage summed over one bucket (an hour or a day): a UsageRow with the bucket's start, epoch ms, for its hour. */
export type UsageBucketRow = Omit<UsageRow, "hour"> & { bucket: number };

export interface UsageKeyInfo {
  id: string;
  name: string;
  prefix: string;
  mode: KeyMode;
  active: boolean;
  createdAt: Date;
}

const toCounts = (row: UsageBucketRow) => ({
  successes: row.successes,
  client_errors: row.clientErrors,
  rate_limited: row.rateLimited,
  server_errors: row.serverErrors,
});

const busiestFirst = <T extends { route: string } & UsageCounts>(routes: Map<string, T>) =>
  [...routes.values()].sort((a, b) => b.requests - a.requests || a.route.localeCompare(b.route));

function addToRoute<T extends { route: string } & UsageCounts>(routes: Map<string, T>, row: UsageBucketRow) {
  let entry = routes.get(row.route);
  if (!entry) routes.set(row.route, (entry = { route: row.route, ...emptyCounts() } as T));
  addCounts(entry, toCounts(row));
}

/**
 * The answer of GET /v1/usage and of Account → Usage from the summed rows: every bucket of the
 * range (zero when nothing happened), for the account and for each key that is active or has
 * usage in the range; rows of a key not in `keys` or of a bucket outside the range are ignored.
 */
export function buildUsageReport(range: UsageRange, rows: readonly UsageBucketRow[], keys: readonly UsageKeyInfo[], limitPerMinute: number): UsageReport {
  const index = new Map(range.buckets.map((start, i) => [start.getTime(), i]));
  const starts = range.buckets.map((start) => start.toISOString());
  const account = { totals: emptyCounts(), buckets: starts.map((start) => ({ start, ...emptyCounts() })), routes: new Map<string, z.infer<typeof routeCountsSchema>>() };
  const perKey = new Map(
    keys.map((key) => [
      key.id,
      {
        key,
        totals: emptyCounts(),
        peak: 0,
        buckets: starts.map((start) => ({ start, ...emptyCounts(), peak_per_minute: 0 })),
        routes: new Map<string, z.infer<typeof routeCountsSchema>>(),
      },
    ]),
  );

  for (const row of rows) {
    const at = index.get(row.bucket);
    const own = perKey.get(row.keyId);
    if (at === undefined || !own) continue;
    const counts = toCounts(row);
    addCounts(account.totals, counts);
    addCounts(account.buckets[at]!, counts);
    addToRoute(account.routes, row);
    addCounts(own.totals, counts);
    const bucket = own.buckets[at]!;
    addCounts(bucket, counts);
    bucket.peak_per_minute = Math.max(bucket.peak_per_minute, row.peakPerMinute);
    own.peak = Math.max(own.peak, row.peakPerMinute);
    addToRoute(own.routes, row);
  }

  const listed = [...perKey.values()]
    .filter((own) => own.key.active || own.totals.requests > 0)
    .sort((a, b) => b.totals.requests - a.totals.requests || b.key.createdAt.getTime() - a.key.createdAt.getTime() || a.key.id.localeCompare(b.key.id));
  return {
    granularity: range.granularity,
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    totals: account.totals,
    buckets: account.buckets,
    routes: busiestFirst(account.routes),
    keys: listed.map((own) => ({
      id: own.key.id,
      name: own.key.name,
      prefix: own.key.prefix,
      mode: own.key.mode,
      active: own.key.active,
      totals: own.totals,
      peak_per_minute: own.peak,
      limit_per_minute: limitPerMinute,
      buckets: own.buckets,
      routes: busiestFirst(own.routes),
    })),
  };
}
