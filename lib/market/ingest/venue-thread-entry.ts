// Runs inside a VenueThread (venue-thread.ts): fetches and parses the venues the round's thread
// sends, through the same connectors, and answers each with its result; and the spot venues, when asked.
import { parentPort, workerData } from "node:worker_threads";
import type { SpotCredentials, SpotVenueResult } from "../carry/fetch-spot-legs";
import type { VenueId, VenueSnapshotResult } from "../model/types";
import { venueFetcher, type VenueFetcher } from "../venues/fetch-all-venues";
import { adoptVenueBudgets } from "../venues/venue-budget";
import { spotFetcher, type SpotFetcher } from "./spot-round";

/**
 * How the thread fetches: the network unless `fetcherModule` names a module (a file URL) whose
 * `createVenueFetcher(fetcherOptions)` gives the fetcher: replays, for tests and the benchmark.
 * `budgets` is the buffer of the process's venue budgets (venue-budget.ts), so this thread's
 * requests draw from the same buckets as the round's thread, the quotes and the backfill.
 */
export interface VenueThreadSetup {
  fetcherModule?: string;
  fetcherOptions?: unknown;
  /** As `fetcherModule`, for the spot venues: a module whose `createSpotFetcher(fetcherOptions)` gives their fetcher. */
  spotFetcherModule?: string;
  budgets?: SharedArrayBuffer;
  /** The process's `--import` preloads (thread-exec-argv.ts `preloadsOf`), imported by the thread's boot file when run from the sources. */
  preloads?: string[];
}
/** A perp venue to fetch, or every spot venue (with the operator's keys for the signed borrow endpoints). */
export type VenueThreadAsk = { venue: VenueId; timeoutMs: number } | { spot: { timeoutMs: number; credentials: SpotCredentials } };
export type VenueThreadRequest = VenueThreadAsk & { id: number };
export type VenueThreadReply = { id: number; result: VenueSnapshotResult } | { id: number; spot: SpotVenueResult[] } | { id: number; spotError: string };

async function createFetcher(setup: VenueThreadSetup): Promise<VenueFetcher> {
  if (!setup.fetcherModule) return venueFetcher();
  const named = (await import(setup.fetcherModule)) as { createVenueFetcher(options: unknown): VenueFetcher };
  return named.createVenueFetcher(setup.fetcherOptions);
}

/** The spot venues' fetch for the keys asked with: the network's, or the module's (which replays, signing with keys of its own). */
async function createSpotFetcher(setup: VenueThreadSetup): Promise<(credentials: SpotCredentials) => SpotFetcher> {
  if (!setup.spotFetcherModule) return (credentials) => spotFetcher({ credentials });
  const named = (await import(setup.spotFetcherModule)) as { createSpotFetcher(options: unknown): SpotFetcher };
  const replaying = named.createSpotFetcher(setup.fetcherOptions);
  return () => replaying;
}

const port = parentPort;
if (port) {
  const setup = (workerData ?? {}) as VenueThreadSetup;
  if (setup.budgets) adoptVenueBudgets(setup.budgets);
  const fetcher = createFetcher(setup);
  let spot: ReturnType<typeof createSpotFetcher> | undefined;
  port.on("message", (request: VenueThreadRequest) => {
    const { id } = request;
    if ("spot" in request) {
      const { timeoutMs, credentials } = request.spot;
      spot ??= createSpotFetcher(setup);
      void spot
        .then((fetcherFor) => fetcherFor(credentials)({ timeoutMs }))
        .then(
          (results): VenueThreadReply => ({ id, spot: results }),
          (error: unknown): VenueThreadReply => ({ id, spotError: error instanceof Error ? error.message : String(error) }),
        )
        .then((reply) => port.postMessage(reply));
      return;
    }
    const { venue, timeoutMs } = request;
    void fetcher
      .then((fetch) => fetch(venue, { timeoutMs }))
      .catch((error: unknown): VenueSnapshotResult => ({
        status: "stale",
        exchange: venue,
        fetchedAt: Date.now(),
        error: error instanceof Error ? error.message : String(error),
      }))
      .then((result) => port.postMessage({ id, result } satisfies VenueThreadReply));
  });
}
