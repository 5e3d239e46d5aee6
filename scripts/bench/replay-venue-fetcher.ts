// The benchmark's venues: each venue's recorded answers widened to `assets` synthetic assets
// (widen-replays.ts) and replayed through the real connectors. A module of its own so the round's
// second thread (VenueThread) builds the same fetcher for its venues.
import { venueFetcher, type VenueFetcher } from "@/lib/market/venues/fetch-all-venues";
import { createReplayFetch } from "@/lib/market/venues/replay-fetch";
import { VENUE_REPLAYS } from "@/tests/fixtures/venues/venue-replay-table";
import type { VenueId, VenueSnapshotResult } from "@/lib/market/model/types";
import type { FetchImplementation } from "@/lib/market/venues/connectors/venue-adapter";
import { VENUE_REFRESH_COSTS } from "@/lib/market/venues/venue-request-limits";
import { syntheticBases, widenRoutes } from "./widen-replays";

/**
 * Every venue answering its widened replay, with its client (and so its loaded market list,
 * reloaded every MARKETS_TTL_MS) kept between rounds as live rounds keep it. A venue's replay is
 * widened when the venue is first asked: the round's two threads each fetch about half of the
 * venues, and every venue's widened answers on both threads were ~47 MB of each thread's heap
 * that no live worker holds (its answers come off sockets), which every full collection marked.
 */
export function createVenueFetcher({ assets }: { assets: number }): VenueFetcher {
  const bases = syntheticBases(assets);
  const replays = new Map<VenueId, FetchImplementation>();
  const replayOf = (venue: VenueId) => {
    let replay = replays.get(venue);
    if (!replay) {
      replay = createReplayFetch(widenRoutes(VENUE_REPLAYS[venue](), bases), { record: false }).fetchImplementation;
      replays.set(venue, replay);
    }
    return replay;
  };
  const steady = new Set<VenueId>();
  return async (venue, options) => {
    const fetch = venueFetcher({ fetchImplementation: replayOf(venue), enableRateLimit: false, keepClient: true });
    if (VENUE_REFRESH_COSTS[venue].inTurns && !steady.has(venue)) {
      steady.add(venue);
      await keepEveryAnswer(() => fetch(venue, options));
    }
    return fetch(venue, options);
  };
}

/**
 * Refreshes a venue asked its markets in turns (GRVT, Derive, Crypto.com: ticker-per-market.ts)
 * until it serves no more markets with a rate than the refresh before: then it serves every one,
 * each from its last answer, as it does in a worker that has run for a few minutes; the measured
 * rounds ask each its turn and rank them all.
 */
async function keepEveryAnswer(refresh: () => Promise<VenueSnapshotResult>): Promise<void> {
  let served = -1;
  for (let i = 0; i < 100; i++) {
    const result = await refresh();
    const now = result.status === "ok" ? result.snapshots.filter((snapshot) => snapshot.fundingRate !== null).length : 0;
    if (now <= served) return;
    served = now;
  }
}
