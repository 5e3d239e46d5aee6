// Runs inside a VenueThread (venue-thread.ts): fetches and parses the venues the round's thread
// sends, through the same connectors, and answers each with its result.
import { parentPort, workerData } from "node:worker_threads";
import type { VenueId, VenueSnapshotResult } from "../model/types";
import { venueFetcher, type VenueFetcher } from "../venues/fetch-all-venues";
import { adoptVenueBudgets } from "../venues/venue-budget";

/**
 * How the thread fetches: the network unless `fetcherModule` names a module (a file URL) whose
 * `createVenueFetcher(fetcherOptions)` gives the fetcher: replays, for tests and the benchmark.
 * `budgets` is the buffer of the process's venue budgets (venue-budget.ts), so this thread's
 * requests draw from the same buckets as the round's thread, the quotes and the backfill.
 */
export interface VenueThreadSetup {
  fetcherModule?: string;
  fetcherOptions?: unknown;
  budgets?: SharedArrayBuffer;
  /** The process's `--import` preloads (thread-exec-argv.ts `preloadsOf`), imported by the thread's boot file when run from the sources. */
  preloads?: string[];
}
export interface VenueThreadRequest {
  id: number;
  venue: VenueId;
  timeoutMs: number;
}
export interface VenueThreadReply {
  id: number;
  result: VenueSnapshotResult;
}

async function createFetcher(setup: VenueThreadSetup): Promise<VenueFetcher> {
  if (!setup.fetcherModule) return venueFetcher();
  const named = (await import(setup.fetcherModule)) as { createVenueFetcher(options: unknown): VenueFetcher };
  return named.createVenueFetcher(setup.fetcherOptions);
}

const port = parentPort;
if (port) {
  const setup = (workerData ?? {}) as VenueThreadSetup;
  if (setup.budgets) adoptVenueBudgets(setup.budgets);
  const fetcher = createFetcher(setup);
  port.on("message", ({ id, venue, timeoutMs }: VenueThreadRequest) => {
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
