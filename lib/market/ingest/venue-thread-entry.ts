// Runs inside a VenueThread (venue-thread.ts): fetches and parses the venues the round's thread
// sends, through the same connectors, and answers each with its result; the spot venues, when
// asked; and ranks a round's markets into its set's columns, when asked.
import os from "node:os";
import { logger } from "@/lib/observability/logger";
import { parentPort, workerData } from "node:worker_threads";
import type { SpotCredentials, SpotVenueResult } from "../carry/fetch-spot-legs";
import type { MarketSnapshot, VenueId, VenueSnapshotResult } from "../model/types";
import { columnsMessage, type ColumnsMessage } from "../opportunities/encoding/columns-message";
import { PersistenceSet } from "../persistence/persistence-set";
import { pairRowColumns, writePairRows, type PairRowInputs } from "../opportunities/pair-rows";
import { rankWithHistory, type MarketHistory } from "./market-history";
import { venueFetcher, type VenueFetcher } from "../venues/fetch-all-venues";
import { reloadDueMarketLists } from "../venues/connectors/fetch-venue-snapshot";
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
  /** How much the thread lowers its own scheduling priority (its nice value; see BACKGROUND_NICE). */
  nice?: number;
}
/**
 * A round's markets to rank with their history (rankWithHistory). The pair persistence set is
 * ~20 MB and changes once an hour, so it comes only when it changed (`bytes`, PersistenceSet.bytes;
 * null: there is none) and the thread keeps it; absent, the one it holds stands.
 */
export interface RankRequest {
  snapshots: readonly MarketSnapshot[];
  history: Omit<MarketHistory, "persistence">;
  persistence?: { through: number; bytes: Uint8Array } | null;
}
/**
 * Rows `from` to `to` of a ranking the round's thread is writing the rest of (writePairRows), in
 * memory both threads share; `done[0]` is set to 1 and notified once they are written (the round's
 * thread waits on it with Atomics.wait), to 2 when writing them failed. No message answers it.
 */
export interface PairRowsRequest {
  rows: PairRowInputs;
  from: number;
  to: number;
  done: Int32Array;
}
/**
 * A perp venue to fetch, rows of a ranking to write, every spot venue (with the operator's keys for
 * the signed borrow endpoints), a round to rank, or the thread's due market lists to reload (reloadDueMarketLists).
 */
export type VenueThreadAsk =
  | { venue: VenueId; timeoutMs: number }
  | { pairRows: PairRowsRequest }
  | { spot: { timeoutMs: number; credentials: SpotCredentials } }
  | { rank: RankRequest }
  | { reloadLists: true };
export type VenueThreadRequest = VenueThreadAsk & { id: number };
export type VenueThreadReply =
  | { id: number; result: VenueSnapshotResult }
  | { id: number; reloaded: number }
  | { id: number; spot: SpotVenueResult[] }
  | { id: number; spotError: string }
  | { id: number; ranked: ColumnsMessage }
  | { id: number; rankError: string };

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

/**
 * Raises this thread's nice value by `by`. On Linux a nice value belongs to a thread, and
 * setpriority for the caller (pid 0) sets the calling thread's alone; elsewhere it would set the
 * process's, so it is left as it is there. Failing is harmless: the thread runs at the process's priority.
 */
function lowerOwnPriority(by: number): void {
  if (process.platform !== "linux") return;
  try {
    os.setPriority(0, Math.min(19, os.getPriority(0) + by));
  } catch {
    // Not allowed here (a sandbox, a seccomp profile): the thread keeps the process's priority.
  }
}

const port = parentPort;
if (port) {
  const setup = (workerData ?? {}) as VenueThreadSetup;
  if (setup.budgets) adoptVenueBudgets(setup.budgets);
  if (setup.nice) lowerOwnPriority(setup.nice);
  const fetcher = createFetcher(setup);
  let spot: ReturnType<typeof createSpotFetcher> | undefined;
  let persistence: PersistenceSet | null = null;
  port.on("message", (request: VenueThreadRequest) => {
    const { id } = request;
    if ("rank" in request) {
      try {
        const { snapshots, history, persistence: sent } = request.rank;
        if (sent !== undefined) persistence = sent && PersistenceSet.ofBytes(sent.through, Buffer.from(sent.bytes.buffer, sent.bytes.byteOffset, sent.bytes.byteLength));
        // The columns' memory goes to the round's thread without a copy.
        const { message, transfer } = columnsMessage(rankWithHistory(snapshots, { ...history, persistence }));
        port.postMessage({ id, ranked: message } satisfies VenueThreadReply, transfer);
      } catch (error) {
        port.postMessage({ id, rankError: error instanceof Error ? error.message : String(error) } satisfies VenueThreadReply);
      }
      return;
    }
    if ("pairRows" in request) {
      const { rows, from, to, done } = request.pairRows;
      try {
        writePairRows(rows, pairRowColumns(rows), from, to);
        Atomics.store(done, 0, 1);
      } catch (error) {
        // The round's thread writes them itself once it sees the 2: no round is lost, but this is a bug.
        logger("ingest").error({ err: error }, "writing a ranking's rows on the venue thread failed");
        Atomics.store(done, 0, 2);
      }
      Atomics.notify(done, 0);
      return;
    }
    if ("reloadLists" in request) {
      // Never rejects: a list that fails to load is logged and stays as it was.
      void reloadDueMarketLists().then((reloaded) => port.postMessage({ id, reloaded } satisfies VenueThreadReply));
      return;
    }
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
