import { assertLimitArguments } from "./assert-limit-arguments";
import { fallbackLimit } from "./fallback-limit";
import { MemoryRateLimiter } from "./memory-rate-limiter";
import type {
  RateLimitAlgorithm,
  RateLimiterService,
  RateLimitResult,
  RateLimitStatus,
  RateLimitStore,
  StoreRateLimiter,
} from "./types";
import { logger } from "@/lib/observability/logger";

export interface ResilienceOptions {
  /** Longest a call waits for the shared store before answering from memory. */
  timeoutMs?: number;
  /**
   * While degraded, how often one call probes the shared store again; the rest go straight to
   * memory so a hung store costs one slow call per interval, not one per request.
   */
  probeIntervalMs?: number;
  /** Epoch-milliseconds clock for probes and the status timestamps; injected by tests. */
  now?: () => number;
  /** Receives one line per transition; the "ratelimit" logger's warn by default. */
  warn?: (message: string) => void;
  /**
   * How many processes serve the API now (lib/process/server-instances.ts); while the store is
   * away each admits only its share of a limit (`fallbackLimit`). Default 1: this process alone.
   */
  liveServers?: () => number;
}

export interface ResilientRateLimiterOptions extends ResilienceOptions {
  store: Exclude<RateLimitStore, "memory">;
  /** The shared store, or the promise of it while its client library is being imported. */
  primary: StoreRateLimiter | Promise<StoreRateLimiter>;
  /** The primary's algorithm, which the fallback must share; default `fixedWindow`. */
  algorithm?: RateLimitAlgorithm;
  fallback?: MemoryRateLimiter;
}

/** What this process answered from memory for one key in one window. */
interface MemoryTally {
  windowMs: number;
  /** Index of the window: floor(time / windowMs). */
  window: number;
  /** The key's full limit, which the carried count is added against. */
  max: number;
  /** Requests admitted from memory that the shared store has not been told of yet. */
  unsent: number;
}

export const DEFAULT_STORE_TIMEOUT_MS = 50;
export const DEFAULT_PROBE_INTERVAL_MS = 1_000;
const CARRY_TIMEOUT_MS = 1_000;

/**
 * Puts a shared store behind a time budget. A call the store cannot answer in time, or answers
 * with an error, is decided by this process's own window instead, against its share of the limit
 * among the live servers (`fallbackLimit`): limits stay enforced, the servers together admitting
 * no more than the limit, and no request waits on a dead Redis. The switch in each direction is logged once and
 * shown by `status()`. Every answer of the shared store is also folded into the process's own
 * counts (`MemoryRateLimiter.merge`), so a fallback resumes from the shared count rather than from
 * zero, and what the process admitted on its own during a fallback still counts afterwards.
 *
 * When the store answers again (perhaps restarted, empty), what this process admitted from memory
 * in a window still open is first added to the store's count for that key (`carry`), before any
 * answer of the store is used, so the other servers see it; and until that window ends the process
 * keeps to its share (`withinShare`): another server may not have carried its own count yet, and
 * the shares together are what keeps the minute of the return within the limit.
 */
export class ResilientRateLimiter implements RateLimiterService {
  private readonly store: Exclude<RateLimitStore, "memory">;
  private readonly primary: Promise<StoreRateLimiter>;
  private readonly fallback: MemoryRateLimiter;
  private readonly timeoutMs: number;
  private readonly probeIntervalMs: number;
  private readonly now: () => number;
  private readonly warn: (message: string) => void;
  private readonly liveServers: () => number;
  private degraded = false;
  private lastError: string | undefined;
  private since: string | undefined;
  private lastProbeAt = Number.NEGATIVE_INFINITY;
  private initialised = false;
  private readonly tallies = new Map<string, MemoryTally>();
  /** Keys whose tally has requests still to carry into the store. */
  private readonly unsent = new Set<string>();
  /** The carry under way, shared by concurrent calls so that no count is sent twice. */
  private carrying: Promise<void> | undefined;
  private nextTallySweepAt = Number.NEGATIVE_INFINITY;

  constructor(options: ResilientRateLimiterOptions) {
    this.store = options.store;
    this.primary = Promise.resolve(options.primary);
    // A store that failed to initialise surfaces on each call; the catch keeps it from also being
    // reported as an unhandled rejection before the first call.
    this.primary.then(
      () => {
        this.initialised = true;
      },
      () => {},
    );
    this.now = options.now ?? (() => Date.now()); // read at each call, so a faked clock is followed
    this.fallback = options.fallback ?? new MemoryRateLimiter({ now: this.now, algorithm: options.algorithm ?? "fixedWindow" });
    this.timeoutMs = options.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
    this.probeIntervalMs = options.probeIntervalMs ?? DEFAULT_PROBE_INTERVAL_MS;
    this.warn = options.warn ?? ((message) => logger("ratelimit").warn(message));
    this.liveServers = options.liveServers ?? (() => 1);
  }

  async limit(key: string, max: number, windowMs: number): Promise<RateLimitResult> {
    // A caller's mistake must not read as a store outage.
    assertLimitArguments(max, windowMs);
    if (this.degraded) {
      const now = this.now();
      if (now - this.lastProbeAt < this.probeIntervalMs) return this.fromMemory(key, max, windowMs);
      this.lastProbeAt = now;
    }
    let result: RateLimitResult;
    try {
      result = await withTimeout(
        this.primary.then(async (primary) => {
          await this.carry(primary);
          return primary.limit(key, max, windowMs);
        }),
        this.timeoutMs,
      );
    } catch (error) {
      // Still importing the client library (the first request after boot): answer from memory
      // without reporting an outage that is only our own start-up.
      if (this.initialised || !(error instanceof StoreTimeoutError)) this.markDegraded(error);
      return this.fromMemory(key, max, windowMs);
    }
    this.markHealthy();
    return this.withinShare(key, max, windowMs, this.fallback.merge(key, result, windowMs));
  }

  /** This process's share of the limit; the answer's `limit` is that share, which is what it enforces. */
  private async fromMemory(key: string, max: number, windowMs: number): Promise<RateLimitResult> {
    const result = await this.fallback.limit(key, fallbackLimit(max, this.liveServers()), windowMs);
    this.record(key, max, windowMs, result.success);
    return result;
  }

  private record(key: string, max: number, windowMs: number, admitted: boolean): void {
    const now = this.now();
    this.sweepTallies(now, windowMs);
    const window = Math.floor(now / windowMs);
    let tally = this.tallies.get(key);
    if (tally === undefined || tally.windowMs !== windowMs || tally.window !== window) {
      tally = { windowMs, window, max, unsent: 0 };
      this.tallies.set(key, tally);
    }
    tally.max = max;
    if (admitted) {
      tally.unsent++;
      this.unsent.add(key);
    }
  }

  /**
   * Adds the requests admitted from memory, in windows still open, to the store's counts: one call
   * per key, only after a fallback. A count is struck off once the store has taken it, so a carry
   * that fails (or times out and lands later) is neither lost nor sent twice by concurrent calls.
   * A window that has ended is dropped: its key in the store has expired too. A carry that hangs
   * is given up after a second, so that it cannot hold every later call; one that lands after that
   * may be sent again, which errs on the strict side.
   */
  private carry(primary: StoreRateLimiter): Promise<void> {
    if (this.unsent.size === 0) return Promise.resolve();
    this.carrying ??= withTimeout(this.sendUnsent(primary), Math.max(this.timeoutMs, CARRY_TIMEOUT_MS)).finally(() => {
      this.carrying = undefined;
    });
    return this.carrying;
  }

  private async sendUnsent(primary: StoreRateLimiter): Promise<void> {
    const now = this.now();
    const sends: Promise<void>[] = [];
    for (const key of this.unsent) {
      const tally = this.tallies.get(key);
      if (tally === undefined || tally.unsent === 0 || tally.window !== Math.floor(now / tally.windowMs)) {
        this.unsent.delete(key);
        continue;
      }
      const count = tally.unsent;
      sends.push(
        primary.limit(key, tally.max, tally.windowMs, count).then(() => {
          tally.unsent -= count;
          if (tally.unsent === 0 && this.tallies.get(key) === tally) this.unsent.delete(key);
        }),
      );
    }
    const failure = (await Promise.allSettled(sends)).find((outcome) => outcome.status === "rejected");
    if (failure !== undefined) throw failure.reason;
  }

  /**
   * The store's answer, held to this process's share while the window in which it answered from
   * memory is still open (the window's count here already includes the store's, see `merge`).
   */
  private withinShare(key: string, max: number, windowMs: number, answer: RateLimitResult): RateLimitResult {
    if (this.tallies.size === 0) return answer;
    const now = this.now();
    this.sweepTallies(now, windowMs);
    const tally = this.tallies.get(key);
    if (tally === undefined || tally.windowMs !== windowMs || tally.window !== Math.floor(now / windowMs)) return answer;
    const share = fallbackLimit(max, this.liveServers());
    const count = answer.limit - answer.remaining;
    if (answer.success && count <= share) return { ...answer, limit: share, remaining: share - count };
    return { success: false, limit: share, remaining: 0, reset: answer.reset };
  }

  // Tallies of ended windows go at most once per window, as in MemoryRateLimiter.
  private sweepTallies(now: number, windowMs: number): void {
    if (now < this.nextTallySweepAt) return;
    this.nextTallySweepAt = now + windowMs;
    for (const [key, tally] of this.tallies) {
      if (Math.floor(now / tally.windowMs) > tally.window) {
        this.tallies.delete(key);
        this.unsent.delete(key);
      }
    }
  }

  status(): RateLimitStatus {
    return {
      store: this.store,
      degraded: this.degraded,
      ...(this.degraded && this.lastError !== undefined ? { lastError: this.lastError } : {}),
      ...(this.since !== undefined ? { since: this.since } : {}),
    };
  }

  async close(): Promise<void> {
    // A store that never connected was logged when it failed (markDegraded): nothing to close.
    const primary = await this.primary.catch(() => undefined);
    await primary?.close();
  }

  private markDegraded(error: unknown): void {
    this.lastError = error instanceof Error ? error.message : String(error);
    if (this.degraded) return;
    const now = this.now();
    this.degraded = true;
    this.lastProbeAt = now;
    this.since = new Date(now).toISOString();
    this.warn(
      `[ratelimit] ${this.store} store unavailable (${this.lastError}); enforcing rate limits ` +
        `per process from memory, each of ${this.liveServers()} live servers admitting its share, until it answers again`,
    );
  }

  private markHealthy(): void {
    if (!this.degraded) return;
    this.degraded = false;
    this.since = new Date(this.now()).toISOString();
    this.warn(`[ratelimit] ${this.store} store reachable again; shared rate limits restored`);
  }
}

class StoreTimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = "StoreTimeoutError";
  }
}

/**
 * Rejects when `promise` has not settled within `ms`. The budget is for the store, not for this
 * process: when the event loop was busy, timers run before the I/O that arrived meanwhile, so an
 * answer already waiting on the socket would lose the race. The rejection is therefore deferred by
 * one turn of the loop (`setImmediate` runs after pending I/O is read) to let such an answer win.
 */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let turn: ReturnType<typeof setImmediate> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      turn = setImmediate(() => reject(new StoreTimeoutError(ms)));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer);
    if (turn !== undefined) clearImmediate(turn);
  });
}
