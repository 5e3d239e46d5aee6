import { venueFetcher, type VenueFetcher } from "@/lib/market/venues/fetch-all-venues";
import { VENUE_REPLAYS } from "@/tests/fixtures/venues/venue-replay-table";
import { createReplayFetch, type ReplayReply } from "@/lib/market/venues/replay-fetch";
import type { MarketSnapshot, VenueId } from "@/lib/market/model/types";

/**
 * Every venue answers from its recorded responses (VENUE_REPLAYS) through the real connectors, except the
 * venues in `broken`, which answer every request with the given reply (garbage, HTTP 500, a hang).
 */
export function replayFetcher(broken: Partial<Record<VenueId, ReplayReply>> = {}): VenueFetcher {
  return (venue, options) => {
    const failure = broken[venue];
    const replay = failure ? createReplayFetch([], { unmatched: failure }) : createReplayFetch(VENUE_REPLAYS[venue]());
    return venueFetcher({ fetchImplementation: replay.fetchImplementation, enableRateLimit: false })(venue, options);
  };
}

/** A fetcher answering fixed snapshots per venue (no ccxt), for rounds whose numbers a test chooses. */
export function snapshotFetcher(snapshots: (venue: VenueId) => MarketSnapshot[], delayMs = 0): VenueFetcher {
  return async (venue) => {
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    const list = snapshots(venue);
    if (list.length === 0) return { status: "stale", exchange: venue, fetchedAt: Date.now(), error: "no markets in this test" };
    return {
      status: "ok",
      exchange: venue,
      fetchedAt: Date.now(),
      snapshots: list,
      excluded: { notLinearPerp: 0, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
      warnings: [],
    };
  };
}

/** A fetcher answering one snapshot each for binance and bybit, and no markets for the other venues. */
export function binanceAndBybit(snapshot: (venue: "binance" | "bybit") => MarketSnapshot): VenueFetcher {
  return snapshotFetcher((venue) => (venue === "binance" || venue === "bybit" ? [snapshot(venue)] : []));
}
