import { fetchVenueSnapshot } from "@/lib/market/venues/connectors/fetch-venue-snapshot";
import type { MarketSnapshot, VenueId, VenueSnapshotResult } from "@/lib/market/model/types";
import { createReplayFetch, type RecordedRequest, type ReplayReply, type ReplayRoute } from "@/lib/market/venues/replay-fetch";

/** One refresh of `venue` against replayed payloads, with ccxt's throttle off. */
export async function replayVenue(
  venue: VenueId,
  routes: readonly ReplayRoute[],
  options: { timeoutMs?: number; now?: () => number; unmatched?: ReplayReply } = {},
): Promise<{ result: VenueSnapshotResult; requests: RecordedRequest[] }> {
  const { unmatched, ...fetchOptions } = options;
  const replay = createReplayFetch(routes, { unmatched });
  const result = await fetchVenueSnapshot(venue, {
    fetchImplementation: replay.fetchImplementation,
    enableRateLimit: false,
    ...fetchOptions,
  });
  return { result, requests: replay.requests };
}

/** The snapshots of an ok result by unified symbol; fails the test on a stale one. */
export function snapshotsBySymbol(result: VenueSnapshotResult): Map<string, MarketSnapshot> {
  if (result.status !== "ok") throw new Error(`expected ok, got stale: ${result.error}`);
  return new Map(result.snapshots.map((snapshot) => [snapshot.market, snapshot]));
}
