// The benchmark's Server-Sent Events reader: only what bench:push measures (each event's id, and
// when its frame was complete), on the bytes, with no decoding or JSON parsing, so 1,000 readers
// in the benchmark's process take little of the CPU the server is measured on.

const FRAME_END = Buffer.from("\n\n");
const ID_FIELD = Buffer.from("id: ");
const ID_LINE = Buffer.from("\nid: ");
const EMPTY = Buffer.alloc(0);

/** Splits an SSE body into complete frames as chunks arrive; hands on the `id:` of each event frame. */
export class SseIdReader {
  private pending: Buffer = EMPTY;

  constructor(private readonly onEventId: (id: string) => void) {}

  /** Takes one chunk of the body; every frame completed by it is reported, in order. */
  push(chunk: Buffer): void {
    let start = 0;
    if (this.pending.length) {
      // The frame begun in an earlier chunk, completed without copying the whole of this one.
      const pending = this.pending;
      if (pending[pending.length - 1] === 10 && chunk[0] === 10) {
        this.frame(pending.subarray(0, pending.length - 1));
        start = 1;
      } else {
        const end = chunk.indexOf(FRAME_END);
        if (end === -1) {
          this.pending = Buffer.concat([pending, chunk]);
          return;
        }
        this.frame(Buffer.concat([pending, chunk.subarray(0, end)]));
        start = end + FRAME_END.length;
      }
      this.pending = EMPTY;
    }
    let end = chunk.indexOf(FRAME_END, start);
    while (end !== -1) {
      this.frame(chunk.subarray(start, end));
      start = end + FRAME_END.length;
      end = chunk.indexOf(FRAME_END, start);
    }
    // A copy, so an incomplete frame does not keep the whole chunk alive.
    if (start < chunk.length) this.pending = Buffer.from(chunk.subarray(start));
  }

  private frame(frame: Buffer): void {
    // Comments (`: heartbeat`), the preamble's `retry:` and anything without an id are not events.
    const at = frame.subarray(0, ID_FIELD.length).equals(ID_FIELD) ? 0 : frame.indexOf(ID_LINE);
    if (at === -1) return;
    const from = at === 0 ? ID_FIELD.length : at + ID_LINE.length;
    const stop = frame.indexOf(10, from);
    this.onEventId(frame.toString("latin1", from, stop === -1 ? frame.length : stop));
  }
}

/** p50/p90/p99/max of `values` (ms), nearest rank; NaN when empty. */
export function latencySummary(values: readonly number[]): { count: number; p50: number; p90: number; p99: number; max: number } {
  const sorted = Float64Array.from(values).sort();
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
  return { count: sorted.length, p50: at(50), p90: at(90), p99: at(99), max: sorted.length ? sorted[sorted.length - 1]! : Number.NaN };
}
