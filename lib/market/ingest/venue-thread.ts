import { Worker } from "node:worker_threads";
import type { SpotCredentials, SpotVenueResult } from "../carry/fetch-spot-legs";
import type { VenueId, VenueSnapshotResult } from "../model/types";
import type { VenueFetcher } from "../venues/fetch-all-venues";
import { logger } from "@/lib/observability/logger";
import { venueBudgets } from "../venues/venue-budget";
import { reloadDueMarketLists } from "../venues/connectors/fetch-venue-snapshot";
import { venuesForSecondThread } from "./split-venues";
import { preloadsOf, threadExecArgv } from "./thread-exec-argv";
import type { SpotFetcher } from "./spot-round";
import type { MarketSnapshot } from "../model/types";
import { columnsOfMessage } from "../opportunities/encoding/columns-message";
import type { OpportunityColumns } from "../opportunities/opportunity-columns";
import type { RowWriter } from "../opportunities/rank-opportunities";
import type { PersistenceSet } from "../persistence/persistence-set";
import type { MarketHistory } from "./market-history";
import type { RankRequest, VenueThreadAsk, VenueThreadRequest, VenueThreadReply, VenueThreadSetup } from "./venue-thread-entry";

/**
 * How far below the process's the thread's scheduling priority is set when the live feeds run
 * (Linux, where a nice value is a thread's own). Its rounds are reconciliation, once a minute;
 * the micro-batches, streams and answers are the latency the service sells. On two cores a
 * round's parsing and ranking here took the core the serving thread and the database needed, and
 * the 10 s before each publish held the freshness benchmark's tail. Nice 10 weighs it at a tenth
 * of a normal thread when the cores are contended and leaves it the whole core when they are not.
 */
export const BACKGROUND_NICE = 10;

/**
 * Where the thread compiled by scripts/server-bundle.mjs is, from this file: set in that bundle only
 * (an esbuild `define`), so a compiled worker starts a compiled thread.
 */
declare const VENUE_THREAD_BUNDLE: string | undefined;

/**
 * The thread's entry: in the bundle, its compiled JavaScript; run from the sources (dev, tests, the
 * benchmark), the TypeScript, loaded through tsx as the process that starts it is.
 */
function threadEntry(): URL {
  return new URL(typeof VENUE_THREAD_BUNDLE === "string" ? VENUE_THREAD_BUNDLE : "./venue-thread-boot.mjs", import.meta.url);
}

/**
 * A second thread that fetches and parses part of each round's venues, so the round's own thread
 * parses only the rest: fetching and parsing 23 venues' answers (17 MB of JSON at 600 assets) was
 * the largest part of a round on that thread, while the machine's second core was idle but for the
 * database's history read. `npm run bench:market -- --alternate` compares rounds with and without it.
 *
 * The thread builds its own fetcher (the network's, or the module's named in `setup`, which
 * replays), since functions do not cross threads; answers come back as structured clones. A thread
 * that dies makes its venues of that round stale, like any failing venue, and the next round starts
 * a new one. The spot venues (INGEST_SPOT) are fetched there too (`spotFetcher`): their answers
 * trickle in over a second or more (one borrow request a coin, spaced), and parsed on the round's
 * thread they landed in the middle of its ranking. And a round's ranking (`ranker`): on a thread that
 * also serves, the second or so it takes ran in slices among the micro-batches and requests, and
 * made the news of the seconds before each publish wait.
 */
export class VenueThread {
  private worker: Worker | undefined;
  /** Each request waiting for its answer: `settle` with the thread's reply, `fail` when none will come. */
  private readonly pending = new Map<number, { settle: (reply: VenueThreadReply) => void; fail: (error: string) => void }>();
  private nextId = 0;
  /** Each venue's markets in its last answer: what the split weighs venues by. */
  private readonly markets = new Map<VenueId, number>();
  /** The pair persistence set the thread holds, and which thread that is (a new one holds none). */
  private sentPersistence: { to: Worker; set: PersistenceSet | null } | undefined;

  constructor(private readonly setup: VenueThreadSetup = {}) {}

  /**
   * A fetcher sending about half the markets to this thread (venuesForSecondThread, by each venue's
   * last answer) and the other venues to `own`, which runs on the calling thread; without `own`,
   * every venue to this thread (a server's: its own thread serves requests meanwhile). A venue
   * stays on its thread from round to round while the split is balanced enough: its client, and
   * so its market list, is that thread's.
   */
  fetcher(own: VenueFetcher | undefined, venues: readonly VenueId[]): VenueFetcher {
    let second: Set<VenueId> | undefined;
    return (venue, options) => {
      // fetchAllVenues asks for every venue before any answers, so a round is split one way throughout.
      if (own) second = venuesForSecondThread(venues, (v) => this.markets.get(v) ?? 1, second);
      const answer = !own || second!.has(venue) ? this.fetch(venue, options.timeoutMs) : own(venue, options);
      return answer.then((result) => {
        if (result.status === "ok") this.markets.set(venue, result.snapshots.length);
        return result;
      });
    };
  }

  /** Ends the thread; venues asked of it and not yet answered are stale. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
    this.failPending("the venue thread was closed");
  }

  /** Every spot venue's answer, fetched and parsed on this thread, with the operator's keys for the signed borrow endpoints. */
  spotFetcher(credentials: SpotCredentials): SpotFetcher {
    return ({ timeoutMs }) =>
      new Promise<SpotVenueResult[]>((resolve, reject) => {
        this.ask({ spot: { timeoutMs, credentials } }, timeoutMs, {
          settle: (reply) => ("spot" in reply ? resolve(reply.spot) : reject(new Error("spotError" in reply ? reply.spotError : "the venue thread answered the spot fetch with a perp venue's answer"))),
          fail: (error) => reject(new Error(error)),
        });
      });
  }

  /**
   * Ranks a round's markets with their history on this thread (market-history.ts rankWithHistory),
   * answering its set's columns, whose memory comes over without a copy. Rejects when the thread
   * fails or gives no answer within `timeoutMs`; the round then ranks on its own thread.
   */
  ranker(timeoutMs = 120_000): (snapshots: readonly MarketSnapshot[], history: MarketHistory) => Promise<OpportunityColumns> {
    return (snapshots, history) =>
      new Promise((resolve, reject) => {
        const { persistence, ...rest } = history;
        const rank: RankRequest = { snapshots, history: rest };
        const to = this.started();
        if (this.sentPersistence?.to !== to || this.sentPersistence.set !== persistence) {
          rank.persistence = persistence && { through: persistence.through, bytes: persistence.bytes() };
          this.sentPersistence = { to, set: persistence };
        }
        this.ask({ rank }, timeoutMs, {
          settle: (reply) => ("ranked" in reply ? resolve(columnsOfMessage(reply.ranked)) : reject(new Error("rankError" in reply ? reply.rankError : "the venue thread answered a ranking with something else"))),
          fail: (error) => reject(new Error(error)),
        });
      });
  }

  /**
   * Writes rows of a round's ranking on this thread while the round's thread writes the others
   * (ComputeOpportunitiesOptions.rowWriter): the thread is idle while its round ranks. `wait` blocks
   * the calling thread until they are written, for at most `timeoutMs`, and answers false when they
   * were not (the thread busy, failed or gone): the caller then writes them itself.
   */
  rowWriter(timeoutMs = 2_000): RowWriter {
    return {
      start: (rows, from, to) => {
        const done = new Int32Array(new SharedArrayBuffer(4));
        const request: VenueThreadRequest = { pairRows: { rows, from, to, done }, id: this.nextId++ };
        this.started().postMessage(request);
        return { wait: () => Atomics.wait(done, 0, 0, timeoutMs) !== "timed-out" && done[0] === 1 };
      },
    };
  }

  /**
   * Reloads the market lists the refreshes of `fetcher`'s venues found due (reloadDueMarketLists):
   * the calling thread's and, at once, this thread's, each one venue at a time; how many. The
   * thread's count 0 when it fails or gives no answer within `timeoutMs`: its lists stay as they
   * were, and a refresh reloads one itself once it is twice as old.
   */
  async reloadMarketLists(timeoutMs = 120_000): Promise<number> {
    const [own, thread] = await Promise.all([reloadDueMarketLists(), this.reloadThreadLists(timeoutMs)]);
    return own + thread;
  }

  private reloadThreadLists(timeoutMs: number): Promise<number> {
    // A thread not started yet has loaded no list.
    if (!this.worker) return Promise.resolve(0);
    return new Promise((resolve) => {
      this.ask({ reloadLists: true }, timeoutMs, {
        settle: (reply) => resolve("reloaded" in reply ? reply.reloaded : 0),
        fail: (error) => {
          logger("ingest").warn({ error }, "the venue thread did not reload its market lists");
          resolve(0);
        },
      });
    });
  }

  private fetch(venue: VenueId, timeoutMs: number): Promise<VenueSnapshotResult> {
    const fetchedAt = Date.now();
    const stale = (error: string): VenueSnapshotResult => ({ status: "stale", exchange: venue, fetchedAt, error });
    return new Promise((resolve) => {
      this.ask({ venue, timeoutMs }, timeoutMs, {
        settle: (reply) => resolve("result" in reply ? reply.result : stale("the venue thread answered with no venue result")),
        fail: (error) => resolve(stale(error)),
      });
    });
  }

  /** Sends `request` under a new id; its answer settles `waiting`, or no answer within `timeoutMs` and a second fails it. */
  private ask(request: VenueThreadAsk, timeoutMs: number, waiting: { settle: (reply: VenueThreadReply) => void; fail: (error: string) => void }): void {
    const worker = this.started();
    const id = this.nextId++;
    // The thread's own deadline answers first: this one only lets go of a thread that hangs.
    const timer = setTimeout(() => this.pending.get(id)?.fail(`no answer from the venue thread within ${timeoutMs} ms`), timeoutMs + 1_000);
    timer.unref();
    const done = () => {
      clearTimeout(timer);
      this.pending.delete(id);
    };
    this.pending.set(id, {
      settle: (reply) => {
        done();
        waiting.settle(reply);
      },
      fail: (error) => {
        done();
        waiting.fail(error);
      },
    });
    const message: VenueThreadRequest = { ...request, id };
    worker.postMessage(message);
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    // The thread draws from this process's venue budgets: one bucket per venue however many threads ask.
    const worker = new Worker(threadEntry(), {
      workerData: { ...this.setup, budgets: this.setup.budgets ?? venueBudgets().buffer, preloads: this.setup.preloads ?? preloadsOf(process.execArgv) } satisfies VenueThreadSetup,
      execArgv: threadExecArgv(process.execArgv),
    });
    // Never what keeps the process alive: a worker stops when its scheduler does.
    worker.unref();
    worker.on("message", (reply: VenueThreadReply) => this.pending.get(reply.id)?.settle(reply));
    worker.on("error", (error) => logger("ingest").error({ err: error }, "the venue thread failed"));
    worker.on("exit", (code) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failPending(`the venue thread exited (code ${code})`);
    });
    this.worker = worker;
    return worker;
  }

  private failPending(error: string) {
    for (const waiting of [...this.pending.values()]) waiting.fail(error);
  }
}
