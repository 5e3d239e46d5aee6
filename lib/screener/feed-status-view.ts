import { appServices } from "@/lib/app-services";
import { readFeedStatus, servedFeed } from "@/lib/market/ingest/feed-status-store";
import { LATENCY_WINDOW_MINUTES } from "@/lib/market/ingest/feed-status-board";
import type { VenueId } from "@/lib/market/model/types";
import type { VenueFeed, VenueFeedMinute } from "@/lib/market/model/venue-feed";

const MINUTE_MS = 60_000;

/** One venue's row of the /status page. */
export interface VenueFeedRow {
  id: string;
  name: string;
  status: "ok" | "stale";
  feed: VenueFeed;
  /** The last hour, a minute each, oldest first (every minute empty when no feed was stored). */
  series: VenueFeedMinute[];
}

/**
 * What the public /status page shows of the live venues at `now`: the figures GET /v1/exchanges
 * gives (`feed`, read the same way), and each venue's last hour by minute for its chart.
 */
export async function feedStatusView(now: number): Promise<VenueFeedRow[]> {
  const services = appServices();
  const market = services.market("live");
  const [status, feeds] = await Promise.all([market.status(), services.db().then(readFeedStatus)]);
  const roundIntervalMs = market.venueStaleAfterMs / 3;
  return status.venues.map((venue) => {
    const stored = feeds.get(venue.id as VenueId);
    const lastSuccessAt = venue.last_success_at === null ? null : Date.parse(venue.last_success_at);
    return {
      id: venue.id,
      name: venue.name,
      status: venue.status,
      feed: servedFeed(stored, { lastSuccessAt, roundIntervalMs }, now),
      series: stored?.series ?? emptyHour(now),
    };
  });
}

function emptyHour(now: number): VenueFeedMinute[] {
  const current = Math.floor(now / MINUTE_MS);
  return Array.from({ length: LATENCY_WINDOW_MINUTES }, (_, i) => ({ at: (current - LATENCY_WINDOW_MINUTES + 1 + i) * MINUTE_MS, messages: 0, p99Ms: null }));
}
