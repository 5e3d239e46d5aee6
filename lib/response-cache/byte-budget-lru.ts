export interface LruStats {
  entries: number;
  bytes: number;
  max_bytes: number;
  evictions: number;
}

interface Slot<V> {
  value: V;
  bytes: number;
}

/**
 * A least-recently-used map bounded by the bytes its values are said to hold rather than by their
 * count: cached answers range from a few hundred bytes to hundreds of kilobytes. A Map keeps
 * insertion order, so a read moves its key to the end (delete and set again) and eviction takes
 * keys from the front. A value larger than the whole budget is not kept at all.
 */
export class ByteBudgetLru<V> {
  private readonly slots = new Map<string, Slot<V>>();
  /** The most recently used key: reading it again needs no reordering (a hot key, read in a row). */
  private newest: string | undefined;
  private total = 0;
  private evicted = 0;

  constructor(readonly maxBytes: number) {
    if (!(maxBytes >= 0)) throw new Error("maxBytes must be a non-negative number");
  }

  get(key: string): V | undefined {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    if (key !== this.newest) {
      this.slots.delete(key);
      this.slots.set(key, slot);
      this.newest = key;
    }
    return slot.value;
  }

  /** Stores `value` as the most recent entry, then evicts the oldest until the budget holds. */
  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.maxBytes) return;
    this.slots.set(key, { value, bytes });
    this.newest = key;
    this.total += bytes;
    for (const [oldest, slot] of this.slots) {
      if (this.total <= this.maxBytes) break;
      this.slots.delete(oldest);
      this.total -= slot.bytes;
      this.evicted++;
    }
  }

  /**
   * Records that the value stored under `key` now holds `bytes`, if `value` is still what is stored
   * there (it may have been evicted or replaced meanwhile); evicts others as `set` does.
   */
  resize(key: string, value: V, bytes: number): void {
    if (this.slots.get(key)?.value === value) this.set(key, value, bytes);
  }

  delete(key: string): boolean {
    const slot = this.slots.get(key);
    if (!slot) return false;
    this.slots.delete(key);
    this.total -= slot.bytes;
    if (key === this.newest) this.newest = undefined;
    return true;
  }

  /** Drops every entry `drop` says to, oldest first. */
  deleteWhere(drop: (key: string, value: V) => boolean): void {
    for (const [key, slot] of this.slots) if (drop(key, slot.value)) this.delete(key);
  }

  stats(): LruStats {
    return { entries: this.slots.size, bytes: this.total, max_bytes: this.maxBytes, evictions: this.evicted };
  }
}
