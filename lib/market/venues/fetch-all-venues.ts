import { fetchVenueSnapshot, type FetchVenueSnapshotOptions } from "../venues/connectors/fetch-venue-snapshot";
import { VENUE_IDS, type MarketSnapshot, type VenueId, type VenueSnapshotResult } from "../model/types";

export type VenueFetcher = (venue: VenueId, options: { timeoutMs: number }) => Promise<VenueSnapshotResult>;

/** The network fetcher, or one replaying through `fetchImplementation` (tests, the offline sample). */
export function venueFetcher(base: Omit<FetchVenueSnapshotOptions, "timeoutMs"> = {}): VenueFetcher {
  return (venue, { timeoutMs }) => fetchVenueSnapshot(venue, { ...base, timeoutMs });
}

/**
 * Every venue at once, each under its own deadline: one slow or broken venue costs the round at
 * most `timeoutMs` and only its own data. A fetcher that throws or never settles counts as stale,
 * so the result always has one entry per venue, in `venues` order.
 */
export async function fetchAllVenues(
  fetcher: VenueFetcher,
  options: { timeoutMs: number; venues?: readonly VenueId[]; now?: () => number; onVenue?: (r: VenueSnapshotResult) => void },
): Promise<VenueSnapshotResult[]> {
  const now = options.now ?? Date.now;
  const venues = options.venues ?? VENUE_IDS;
  return Promise.all(
    venues.map(async (venue): Promise<VenueSnapshotResult> => {
      const fetchedAt = now();
      let timer: NodeJS.Timeout | undefined;
      // A second, outer deadline: fetchVenueSnapshot keeps its own, an injected fetcher may not.
      const deadline = new Promise<VenueSnapshotResult>((resolve) => {
        timer = setTimeout(
          () => resolve({ status: "stale", exchange: venue, fetchedAt, error: `no answer within ${options.timeoutMs} ms` }),
          options.timeoutMs + 500,
        );
      });
      const work = fetcher(venue, { timeoutMs: options.timeoutMs }).catch(
        (error: unknown): VenueSnapshotResult => ({
          status: "stale",
          exchange: venue,
          fetchedAt,
          error: error instanceof Error ? error.message : String(error),
        }),
      );
      const result = await Promise.race([work, deadline]).finally(() => clearTimeout(timer));
      options.onVenue?.(result);
      return result;
    }),
  );
}

/**
 * The snapshots of every venue that answered, in the results' order. A loop, not `flatMap`, which
 * took 9 ms for a round's 26,000 snapshots against 0.4 ms (in process, 46 lists).
 */
export function answeredSnapshots(results: readonly VenueSnapshotResult[]): MarketSnapshot[] {
  const snapshots: MarketSnapshot[] = [];
  for (const result of results) if (result.status === "ok") for (const snapshot of result.snapshots) snapshots.push(snapshot);
  return snapshots;
}
