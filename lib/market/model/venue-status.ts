import { z } from "zod";
import { isStale, nextStaleAt } from "./leg-freshness";

// What the service says of each venue's data and of the latest round (GET /v1/exchanges, the
// health check), and how fresh a venue is: shared by the live market, which reads it from what
// the rounds stored (lib/market/ingest/ingestion-status.ts), and the sandbox, which makes it up.

const iso = z.iso.datetime().nullable();

export const venueStatusSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z
    .enum(["ok", "stale"])
    .describe(
      "`stale` when the venue's data is older than `stale_after_seconds`, or its latest refresh failed (a failed venue is left out " +
        "of the next opportunity set published); `ok` otherwise.",
    ),
  last_success_at: iso.describe(
    "ISO 8601 UTC start of the venue's last successful refresh: when the newest data the service holds from it was fetched " +
      "(its legs' `observed_at` are the venue's own times for those numbers). `null` before its first success.",
  ),
  data_age_seconds: z
    .number()
    .nonnegative()
    .nullable()
    .describe(
      "How old the venue's data was when the answer was made: seconds since `last_success_at`. `null` before its first success. " +
        "Over `stale_after_seconds` the venue is `stale`.",
    ),
  stale_after_seconds: z
    .number()
    .positive()
    .describe(
      "How old a venue's data may be before it is `stale`: three ingestion intervals. Opportunity legs older than this are flagged `stale`.",
    ),
  last_error: z.string().nullable(),
  markets_count: z.number().int().nonnegative(),
});

export const roundStatusSchema = z.object({
  id: z.string(),
  status: z.enum(["running", "published", "failed", "abandoned"]),
  started_at: z.iso.datetime(),
  finished_at: iso,
  venues_done: z.number().int().nonnegative(),
  venues_total: z.number().int().positive(),
  opportunities: z.number().int().nonnegative().nullable(),
  venues: z.array(
    z.object({
      exchange: z.string(),
      status: z.enum(["ok", "stale"]),
      markets: z.number().int().nonnegative(),
      error: z.string().nullable(),
      duration_ms: z.number().nonnegative(),
    }),
  ),
});

export const ingestionStatusSchema = z.object({
  venues: z.array(venueStatusSchema),
  last_round: roundStatusSchema.nullable(),
});
export type IngestionStatus = z.infer<typeof ingestionStatusSchema>;

type VenueStatus = z.infer<typeof venueStatusSchema>;

/**
 * A venue's status and data age at `now`, from its last refresh's outcome and last success. A venue
 * whose last success is older than `staleAfterMs` is stale even if its last word was "ok": that is
 * what a dead worker looks like from here.
 */
export function venueFreshness(
  health: { status: string; lastSuccessAt: Date | null } | undefined,
  staleAfterMs: number,
  now: number,
): Pick<VenueStatus, "status" | "data_age_seconds" | "stale_after_seconds"> {
  const success = health?.lastSuccessAt?.getTime();
  const fresh = health?.status === "ok" && success !== undefined && !isStale(success, { at: now, staleAfterMs });
  return {
    status: fresh ? "ok" : "stale",
    data_age_seconds: success === undefined ? null : Math.max(0, now - success) / 1000,
    stale_after_seconds: staleAfterMs / 1000,
  };
}

/**
 * The first moment after `now` at which a venue that is `ok` turns stale with time alone; undefined
 * when none will. An answer listing the venues is not reused past it.
 */
export function nextVenueStaleAt(venues: readonly Pick<VenueStatus, "status" | "last_success_at">[], staleAfterMs: number, now: number) {
  const ok = venues.flatMap((v) => (v.status === "ok" && v.last_success_at !== null ? [Date.parse(v.last_success_at)] : []));
  return nextStaleAt(ok, { at: now, staleAfterMs });
}
