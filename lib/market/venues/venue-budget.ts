import { VENUE_IDS, type VenueId } from "../model/types";
import { budgetOwner, liveReserve, VENUE_REQUEST_LIMITS, type VenueRequestLimit } from "./venue-request-limits";

/**
 * Who asks: live rounds and quotes (`live`) take a token whenever one is there and otherwise book
 * the next one and wait for it; the backfill takes one only while the bucket holds more than its
 * live reserve, and never books ahead, so it never stands in front of a live request.
 */
export type BudgetPriority = "live" | "backfill";

/** Time as a budget sees it (epoch ms), so tests run it on a fake clock. */
export interface BudgetClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: BudgetClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason as Error);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

export interface BucketShape {
  ratePerSecond: number;
  burst: number;
  /** Tokens only `live` may take. */
  reserve: number;
}

/** What one draw did: took a token (and, for a live one booked ahead, how long until it is due), or not yet. */
export type Draw = { taken: true; zeroAt: number; waitUs: number } | { taken: false; waitUs: number };

/**
 * One draw from a token bucket held as a single number, `zeroAt`: the moment (µs) the bucket was,
 * or will be, empty, so its tokens at `now` are min(burst, (now - zeroAt) / interval). One number
 * is what lets threads share the bucket with a compare-and-swap. Pure: venue-budget.test.ts runs it
 * on a fake clock.
 */
export function drawToken(zeroAt: number, nowUs: number, bucket: BucketShape, priority: BudgetPriority): Draw {
  // Rounded up: a rate of 1/3 a second never lets a request through a microsecond early.
  const interval = Math.ceil(1e6 / bucket.ratePerSecond);
  const after = Math.max(zeroAt, nowUs - bucket.burst * interval) + interval;
  if (priority === "live") return { taken: true, zeroAt: after, waitUs: Math.max(0, after - nowUs) };
  const short = after + bucket.reserve * interval - nowUs;
  return short <= 0 ? { taken: true, zeroAt: after, waitUs: 0 } : { taken: false, waitUs: short };
}

/**
 * Token buckets whose state lives in a SharedArrayBuffer: every thread that holds the buffer draws
 * from the same buckets (Atomics compare-and-swap on one int64 each, beside a count of the draws),
 * so a venue's requests from the round's thread, the venue thread, the quotes and the backfill of
 * one process are counted together.
 */
export class SharedBuckets {
  /** Per bucket: [zeroAt (µs), draws so far]. */
  private readonly state: BigInt64Array;

  constructor(
    readonly buffer: SharedArrayBuffer,
    private readonly shapes: readonly BucketShape[],
    private readonly clock: BudgetClock = systemClock,
  ) {
    if (buffer.byteLength < shapes.length * 16) throw new Error(`SharedBuckets: ${buffer.byteLength} bytes cannot hold ${shapes.length} buckets`);
    for (const shape of shapes) {
      if (!(shape.ratePerSecond > 0) || !(shape.burst >= 1) || !(shape.reserve >= 0 && shape.reserve < shape.burst)) {
        throw new Error(`SharedBuckets: rate ${shape.ratePerSecond}/s, burst ${shape.burst}, reserve ${shape.reserve} do not make a bucket`);
      }
    }
    this.state = new BigInt64Array(buffer, 0, shapes.length * 2);
  }

  static buffer(buckets: number): SharedArrayBuffer {
    return new SharedArrayBuffer(buckets * 16);
  }

  /** Waits until bucket `index` lets a request of `priority` through, and counts it. */
  async take(index: number, priority: BudgetPriority, signal?: AbortSignal): Promise<void> {
    const shape = this.shapes[index];
    if (!shape) throw new Error(`SharedBuckets: no bucket ${index}`);
    for (;;) {
      signal?.throwIfAborted();
      const current = Atomics.load(this.state, index * 2);
      const draw = drawToken(Number(current), this.clock.now() * 1_000, shape, priority);
      if (!draw.taken) {
        await this.clock.sleep(Math.ceil(draw.waitUs / 1_000), signal);
        continue;
      }
      // Another thread drew in between: draw again from what it left.
      if (Atomics.compareExchange(this.state, index * 2, current, BigInt(draw.zeroAt)) !== current) continue;
      Atomics.add(this.state, index * 2 + 1, 1n);
      if (draw.waitUs > 0) await this.clock.sleep(Math.ceil(draw.waitUs / 1_000), signal);
      return;
    }
  }

  /** Tokens in bucket `index` now (negative: live requests booked ahead). */
  tokens(index: number): number {
    const shape = this.shapes[index]!;
    const interval = Math.ceil(1e6 / shape.ratePerSecond);
    return Math.min(shape.burst, (this.clock.now() * 1_000 - Number(Atomics.load(this.state, index * 2))) / interval);
  }

  /** Requests bucket `index` has let through, from every thread. */
  draws(index: number): number {
    return Number(Atomics.load(this.state, index * 2 + 1));
  }
}

function shapeOf(limit: VenueRequestLimit): BucketShape {
  return { ratePerSecond: limit.requestsPerSecond, burst: limit.burst, reserve: liveReserve(limit) };
}

/**
 * One bucket per venue at its published rate (VENUE_REQUEST_LIMITS), over a buffer threads share;
 * a venue that spends another's budget (budgetOwner: the HIP-3 dexes, Hyperliquid's) draws from
 * that venue's bucket, and its own stays unused.
 */
export class VenueBudgets {
  private readonly buckets: SharedBuckets;

  constructor(
    buffer: SharedArrayBuffer = SharedBuckets.buffer(VENUE_IDS.length),
    limits: Readonly<Record<VenueId, VenueRequestLimit>> = VENUE_REQUEST_LIMITS,
    clock: BudgetClock = systemClock,
  ) {
    this.buckets = new SharedBuckets(
      buffer,
      VENUE_IDS.map((venue) => shapeOf(limits[venue])),
      clock,
    );
  }

  get buffer(): SharedArrayBuffer {
    return this.buckets.buffer;
  }

  take(venue: VenueId, priority: BudgetPriority, signal?: AbortSignal): Promise<void> {
    return this.buckets.take(bucketOf(venue), priority, signal);
  }

  tokens(venue: VenueId): number {
    return this.buckets.tokens(bucketOf(venue));
  }

  /** Requests to `venue`'s budget this process has let through (for a HIP-3 dex: all of Hyperliquid's). */
  draws(venue: VenueId): number {
    return this.buckets.draws(bucketOf(venue));
  }
}

function bucketOf(venue: VenueId): number {
  return VENUE_IDS.indexOf(budgetOwner(venue));
}

let processBudgets: VenueBudgets | undefined;

/**
 * The process's venue budgets: made on first use in the main thread, adopted from its buffer by the
 * venue thread (adoptVenueBudgets) before that thread makes any request.
 */
export function venueBudgets(): VenueBudgets {
  processBudgets ??= new VenueBudgets();
  return processBudgets;
}

/** Makes this thread draw from the buckets in `buffer` (the venue thread, from its setup). */
export function adoptVenueBudgets(buffer: SharedArrayBuffer): void {
  processBudgets = new VenueBudgets(buffer);
}

/** Whether `exchange` is a venue with a budget (history readers name theirs by string). */
export function isBudgetedVenue(exchange: string): exchange is VenueId {
  return (VENUE_IDS as readonly string[]).includes(exchange);
}
