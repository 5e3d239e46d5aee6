import { withDeadline } from "../venues/connectors/with-deadline";

export interface FreshCacheOptions {
  /** How long a loaded value is served, counted from when its load started. */
  freshMs: number;
  /** How long a load may take; past it every caller waiting on it is rejected with DeadlineExceededError. */
  deadlineMs: number;
  /** Names a key in the deadline's message, e.g. "okx BTC/USDT:USDT order book". */
  label: (key: string) => string;
  /** Epoch-ms clock; injected by tests. */
  now?: () => number;
  /** Past this many entries, expired ones are dropped when a value is stored. */
  maxEntries?: number;
}

interface Entry<T> {
  value: T;
  /** When the load that produced it started: the value is at least as recent as this. */
  loadedFrom: number;
}

/**
 * Values that are only worth serving for a short while (order books), loaded on demand:
 * - a value is served for `freshMs` from when its load *started*, so nothing older than that is
 *   ever handed out as current, and a load that failed or missed its deadline leaves nothing
 *   behind (the previous value is not kept past its own freshness either);
 * - concurrent requests for a key share one load (single flight): 50 quotes of a cold market cost
 *   the venue one request;
 * - a load that takes longer than `deadlineMs` rejects everyone waiting on it, and its late answer
 *   is dropped; the next request starts a new load.
 */
export class FreshCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly pending = new Map<string, Promise<T>>();
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(private readonly options: FreshCacheOptions) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 5_000;
  }

  /** The key's value if it is fresh, else the load in flight for it, else a new `load()`. */
  get(key: string, load: () => Promise<T>): Promise<T> {
    const entry = this.entries.get(key);
    if (entry && this.isFresh(entry)) return Promise.resolve(entry.value);
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    const loadedFrom = this.now();
    const loading = this.settle(key, loadedFrom, load);
    this.pending.set(key, loading);
    return loading;
  }

  private async settle(key: string, loadedFrom: number, load: () => Promise<T>): Promise<T> {
    try {
      // A load that throws synchronously rejects like one that fails later.
      const value = await withDeadline(Promise.resolve().then(load), this.options.deadlineMs, this.options.label(key));
      this.store(key, { value, loadedFrom });
      return value;
    } finally {
      this.pending.delete(key);
    }
  }

  private isFresh(entry: Entry<T>): boolean {
    return this.now() - entry.loadedFrom < this.options.freshMs;
  }

  private store(key: string, entry: Entry<T>): void {
    this.entries.set(key, entry);
    if (this.entries.size <= this.maxEntries) return;
    for (const [other, kept] of this.entries) if (!this.isFresh(kept)) this.entries.delete(other);
  }
}
