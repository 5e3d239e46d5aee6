// The benchmark's venues: each venue's recorded answers widened to `assets` synthetic assets
// (widen-replays.ts) and replayed through the real connectors. A module of its own so the round's
// second thread (VenueThread) builds the same fetcher for its venues.
import { venueFetcher, type VenueFetcher } from "@/lib/market/venues/fetch-all-venues";
import { createReplayFetch } from "@/lib/market/venues/replay-fetch";
import { VENUE_REPLAYS } from "@/tests/fixtures/venues/venue-replay-table";
import { VENUE_IDS } from "@/lib/market/model/types";
import { syntheticBases, widenRoutes } from "./widen-replays";

/**
 * Every venue answering its widened replay, with its client (and so its loaded market list,
 * reloaded every MARKETS_TTL_MS) kept between rounds as live rounds keep it.
 */
export function createVenueFetcher({ assets }: { assets: number }): VenueFetcher {
  const bases = syntheticBases(assets);
  const replays = new Map(VENUE_IDS.map((venue) => [venue, createReplayFetch(widenRoutes(VENUE_REPLAYS[venue](), bases), { record: false }).fetchImplementation]));
  return (venue, options) => venueFetcher({ fetchImplementation: replays.get(venue), enableRateLimit: false, keepClient: true })(venue, options);
}
