import { z } from "zod";
import { ingestionStatusSchema, nextVenueStaleAt, venueStatusSchema } from "@/lib/market/model/venue-status";
import { venueFee, venueFeeSchema } from "@/lib/market/venues/venue-fees";
import { venueFeedSchema } from "@/lib/market/model/venue-feed";
import { readFeedStatus, servedFeed, type StoredFeedStatus } from "@/lib/market/ingest/feed-status-store";
import type { VenueId } from "@/lib/market/model/types";
import { cursorGroups } from "@/lib/history/backfill/backfill-store";
import { backfillProgressSchema, venueProgress } from "@/lib/history/backfill/backfill-progress";
import { marketMetaSchema } from "../openapi/shared-schemas";
import { jsonWithoutClock } from "../cached-read";
import { defineRoute } from "../route";

/**
 * Venue health, data ages and a running round's progress change between publishes, so this answer
 * is reused for a short while rather than until the next publish: ages are then at most this much
 * behind, and a venue turning stale with time alone cuts the reuse short (`nextVenueStaleAt`).
 */
const REUSE_MS = 2_000;

const exchangeSchema = venueStatusSchema.extend({ fees: venueFeeSchema, backfill: backfillProgressSchema.nullable(), feed: venueFeedSchema });
const exchangesPayload = z.object({ items: z.array(exchangeSchema), last_round: ingestionStatusSchema.shape.last_round });

// GET /v1/exchanges — each venue's health (status, last success, data age, markets), its fees, and the latest round's progress.
export const listExchangesRoute = defineRoute({
  method: "GET",
  path: "/v1/exchanges",
  operationId: "listExchanges",
  summary: "List exchanges and their data health",
  description:
    "Every exchange the service reads, with its status (`ok`, or `stale` when its data is older than `stale_after_seconds`, " +
    "three ingestion intervals, or its latest refresh failed), when it last succeeded, how old its data is, its last error " +
    "and how many markets it lists, plus the latest ingestion round's progress. " +
    "`fees` gives the venue's published base-tier maker and taker fees with their source and date (`fee_source: \"schedule\"`), " +
    "the ones `net_apr` and quotes charge; where no schedule was found (`ccxt_fallback`) each market is charged what its " +
    "connector reads (ccxt's value, which can be a placeholder). " +
    "`backfill` gives the progress of reading the venue's own funding history into `/v1/funding-rates` (markets done of the total, " +
    "settlements stored, the oldest one, its state); `null` before it starts, for a venue that serves no history, and for test keys. " +
    "`feed` says how the venue's numbers arrive (`stream` or `poll`, with the polling cadence), how old its last message is, the " +
    "p50 and p99 of its venue-to-publish latency over the last hour and its stream's reconnects over 24 hours (the public /status " +
    "page shows the same). " +
    `The answer may be reused for up to ${REUSE_MS / 1000} s, so \`data_age_seconds\` may be up to ${REUSE_MS / 1000} s behind ` +
    "(`last_success_at` is exact); a venue's status is never served past the moment it turns stale.",
  tag: "Market data",
  permission: "opportunities:read",
  data: exchangesPayload,
  meta: marketMetaSchema,
  cached: true,
  handler: async ({ actor, services }) => {
    const market = services.market(actor.mode);
    // Taken before the status is read, so no venue can turn stale between the two unnoticed.
    const now = Date.now();
    const [status, snapshot, backfill, feeds] = await Promise.all([
      market.status(),
      market.opportunities(),
      // The sandbox's venues are made up: nothing of theirs is backfilled or streamed.
      actor.mode === "live" ? services.db().then((db) => cursorGroups(db, now)).then(venueProgress) : new Map<string, never>(),
      actor.mode === "live" ? services.db().then(readFeedStatus) : new Map<VenueId, StoredFeedStatus>(),
    ]);
    // Whole rounds poll every venue once an interval; the stale threshold is three of them.
    const roundIntervalMs = market.venueStaleAfterMs / 3;
    const data = exchangesPayload.parse({
      items: status.venues.map((venue) => ({
        ...venue,
        fees: venueFee(venue.id),
        backfill: backfill.get(venue.id) ?? null,
        feed: servedFeed(
          feeds.get(venue.id as VenueId),
          { lastSuccessAt: venue.last_success_at === null ? null : Date.parse(venue.last_success_at), roundIntervalMs },
          now,
        ),
      })),
      last_round: status.last_round,
    });
    return {
      data,
      // The ETag leaves the ages out: they move every second, what they are counted from does not.
      tagJson: jsonWithoutClock(data),
      meta: { data_as_of: snapshot.asOf, sample: snapshot.sample, mode: actor.mode },
      validUntil: Math.min(now + REUSE_MS, nextVenueStaleAt(status.venues, market.venueStaleAfterMs, now) ?? Infinity),
    };
  },
});
