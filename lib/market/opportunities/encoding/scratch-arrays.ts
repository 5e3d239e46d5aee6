/** A typed array's constructor over a buffer. */
type ArrayType<T> = { new (buffer: ArrayBufferLike, offset: number, length: number): T; BYTES_PER_ELEMENT: number };

/**
 * The working arrays of a computation that runs again and again (a round's ranking), kept between
 * runs: each run takes them in the same order, and gets the buffers the run before used. V8 starts a
 * full collection whenever ArrayBuffer memory has grown 64 MB since the last one, and a round made
 * ~130 MB of them, so every round paid one (800–1,100 ms of CPU at 46 venues; docs/operations.md).
 * One computation at a time: each `newRun` hands every buffer out again.
 */
export class ScratchArrays {
  private readonly buffers: ArrayBufferLike[] = [];
  private next = 0;

  /** `shared`: the buffers SharedArrayBuffers, which another thread can be given (ColumnSlabs). */
  constructor(private readonly shared = false) {}

  /** A new run's way to take its arrays: the arrays the last run took are handed out again, in order. */
  newRun(): TakeArray {
    this.next = 0;
    return (type, length, options) => this.take(type, length, options?.overwritten === true);
  }

  /**
   * `length` zeros, as `new type(length)` gives them, in the run's next buffer (made larger where
   * too small); what the last run left there when the caller overwrites every element before it
   * reads one (`overwritten`).
   */
  private take<T extends ArrayBufferView>(type: ArrayType<T>, length: number, overwritten: boolean): T {
    const bytes = length * type.BYTES_PER_ELEMENT;
    let buffer = this.buffers[this.next];
    if (!buffer || buffer.byteLength < bytes) {
      buffer = roomyBuffer(bytes, this.shared);
      this.buffers[this.next] = buffer;
    } else if (!overwritten) new Uint8Array(buffer, 0, bytes).fill(0);
    this.next += 1;
    return new type(buffer, 0, length);
  }
}

/**
 * A buffer of at least `bytes`, with room for a few more, so the next run's slightly larger arrays
 * (or set) still fit it; shared (a SharedArrayBuffer) for memory another thread writes too.
 */
export function roomyBuffer(bytes: number, shared: boolean): ArrayBufferLike {
  const size = Math.ceil((bytes * 1.05) / 8) * 8;
  return shared ? new SharedArrayBuffer(size) : new ArrayBuffer(size);
}

/**
 * Where a computation takes its working arrays: kept between runs, or new ones each time. Zeros,
 * unless the caller says it writes every element before reading any (`overwritten`): zeroing a
 * round's ~30 MB of working arrays it overwrites anyway cost its thread ~10 ms at 46 venues.
 */
export type TakeArray = <T extends ArrayBufferView>(type: ArrayType<T>, length: number, options?: { overwritten: true }) => T;

/** What a caller of a TakeArray that writes every element before it reads one passes. */
export const OVERWRITTEN = { overwritten: true } as const;

/** New arrays every time: a computation without a `ScratchArrays` of its own. */
export const newArray: TakeArray = (type, length) => new type(new ArrayBuffer(length * type.BYTES_PER_ELEMENT), 0, length);

/**
 * Arrays for sets published one after another, each read until the next is published (a round's
 * carry set: served, and diffed by the next round's events): two ScratchArrays taking turns, a run
 * always in the one that does not hold the published set. A run not published (its store failed)
 * leaves the published set where it was, and the next run takes the same memory again.
 */
export class PublishedArrays {
  private readonly memories = [new ScratchArrays(), new ScratchArrays()] as const;
  private published = -1;

  /** The next set's way to take its arrays, and what to call once that set is published. */
  newRun(): { take: TakeArray; published(): void } {
    const turn = this.published === 0 ? 1 : 0;
    return { take: this.memories[turn].newRun(), published: () => void (this.published = turn) };
  }
}
