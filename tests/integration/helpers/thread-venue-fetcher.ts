// What a VenueThread's thread fetches with in tests (VenueThreadSetup.fetcherModule and
// spotFetcherModule): every venue's and spot venue's recorded answers, and, when told, a thread that dies the first time it is asked for one venue or
// never answers for one, or one whose replays draw from the thread's venue budgets, or one that
// answers only once the process's preload ran in the thread.
import { existsSync, writeFileSync } from "node:fs";
import { spotFetcher, type SpotFetcher } from "@/lib/market/ingest/spot-round";
import { venueFetcher, type VenueFetcher } from "@/lib/market/venues/fetch-all-venues";
import { createReplayFetch } from "@/lib/market/venues/replay-fetch";
import { venueBudgets } from "@/lib/market/venues/venue-budget";
import { MARKETS_TTL_MS } from "@/lib/market/venues/connectors/fetch-venue-snapshot";
import type { FetchImplementation } from "@/lib/market/venues/connectors/venue-adapter";
import { VENUE_REPLAYS } from "@/tests/fixtures/venues/venue-replay-table";
import { allSpotRoutes } from "@/tests/fixtures/carry/spot-replay-table";
import type { VenueId } from "@/lib/market/model/types";
import { replayFetcher } from "./venue-fetchers";

export interface ThreadFetcherOptions {
  /** Asked for this venue while `marker` does not exist, the thread writes the marker and exits. */
  exitOn?: { venue: VenueId; marker: string };
  /** Asked for this venue, the thread never answers. */
  hangOn?: VenueId;
  /** Each replayed request draws a live token from the thread's venue budgets (the process's, adopted from the setup). */
  drawBudget?: boolean;
  /** Every venue stale unless thread-preload.ts ran in this thread first. */
  needsPreload?: boolean;
  /** The spot fetch fails with this message. */
  spotFails?: string;
  /**
   * Replays through kept clients, their market lists reused as live ones are, on a clock that moves
   * MARKETS_TTL_MS at each fetch: every refresh of a venue after its first finds its list due.
   */
  listsAgeing?: boolean;
}

/** The spot venues' recorded answers, with the keys `SPOT_KEYS` for the signed borrow endpoints. */
export function createSpotFetcher(options: ThreadFetcherOptions = {}): SpotFetcher {
  if (options.spotFails) return () => Promise.reject(new Error(options.spotFails));
  return spotFetcher({ fetchImplementation: createReplayFetch(allSpotRoutes()).fetchImplementation, credentials: SPOT_KEYS });
}

const KEY = { key: "test-read-only-key", secret: "test-read-only-secret" };
export const SPOT_KEYS = { binance: KEY, bybit: KEY, gate: KEY };

export function createVenueFetcher(options: ThreadFetcherOptions = {}): VenueFetcher {
  const replay = replayFetcher();
  const kept = new Map<VenueId, { fetchImplementation: FetchImplementation; clock: number }>();
  return (venue, fetchOptions) => {
    if (options.listsAgeing) {
      const client = kept.get(venue) ?? { fetchImplementation: createReplayFetch(VENUE_REPLAYS[venue]()).fetchImplementation, clock: Date.now() };
      kept.set(venue, client);
      const fetchedAt = (client.clock += MARKETS_TTL_MS);
      return venueFetcher({ fetchImplementation: client.fetchImplementation, enableRateLimit: false, keepClient: true, now: () => fetchedAt })(venue, fetchOptions);
    }
    const { exitOn } = options;
    if (exitOn?.venue === venue && !existsSync(exitOn.marker)) {
      writeFileSync(exitOn.marker, "");
      process.exit(3);
    }
    if (options.hangOn === venue) return new Promise(() => undefined);
    if (options.needsPreload && !(globalThis as { threadPreloaded?: boolean }).threadPreloaded) return Promise.resolve({ status: "stale", exchange: venue, fetchedAt: Date.now(), error: "not preloaded" });
    if (options.drawBudget) {
      const { fetchImplementation } = createReplayFetch(VENUE_REPLAYS[venue]());
      return venueFetcher({ fetchImplementation, enableRateLimit: false, budgets: venueBudgets() })(venue, fetchOptions);
    }
    return replay(venue, fetchOptions);
  };
}
