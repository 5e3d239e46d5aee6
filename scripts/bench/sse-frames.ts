// The benchmark's Server-Sent Events reader: only what bench:push measures (each event's sequence,
// once its frame is complete), read off the connection's raw bytes: no HTTP parser, no decoding, no
// JSON and no object per frame, so 1,000 readers in the benchmark's process take as little as can be
// of the two cores the server is measured on. It looks for what opens every event frame the service
// writes (`id: evt_` and the sequence's digits) and reports it when the frame's blank line has
// arrived; everything else (the response's head, chunked encoding's size lines, the preamble,
// heartbeat comments) holds no `id: evt_` and is passed over. A frame's JSON never holds one either:
// JSON writes `"id":"evt_…"`.

const FRAME_END = Buffer.from("\n\n");
const ID_PREFIX = Buffer.from("id: evt_");
const EMPTY = Buffer.alloc(0);
const NEWLINE = 10;
const ZERO = 48;
const NINE = 57;

/** Finds complete event frames in a byte stream as chunks arrive; hands on each one's sequence, in order. */
export class SseIdReader {
  /** The unfinished end of the bytes so far: a frame begun but not ended, or the start of `id: evt_`. */
  private pending: Buffer = EMPTY;

  constructor(private readonly onEvent: (sequence: number) => void) {}

  /** Takes one chunk; every frame completed by it is reported. */
  push(chunk: Buffer): void {
    let start = 0;
    if (this.pending.length) {
      const pending = this.pending;
      this.pending = EMPTY;
      // What is pending ends at the chunk's first frame end (or at its first byte, when the blank line
      // was cut in two): joined with only that much of the chunk, so the chunk itself is not copied.
      const cutBlankLine = pending[pending.length - 1] === NEWLINE && chunk[0] === NEWLINE;
      const end = cutBlankLine ? 0 : chunk.indexOf(FRAME_END);
      if (end === -1) return this.scan(Buffer.concat([pending, chunk]), 0);
      start = cutBlankLine ? 1 : end + FRAME_END.length;
      this.scan(Buffer.concat([pending, chunk.subarray(0, start)]), 0);
    }
    this.scan(chunk, start);
  }

  private scan(bytes: Buffer, from: number): void {
    for (;;) {
      const id = bytes.indexOf(ID_PREFIX, from);
      if (id === -1) {
        this.pending = Buffer.from(bytes.subarray(bytes.length - prefixTail(bytes, from)));
        return;
      }
      const end = bytes.indexOf(FRAME_END, id);
      if (end === -1) {
        // A copy, so an incomplete frame does not keep the whole chunk alive.
        this.pending = Buffer.from(bytes.subarray(id));
        return;
      }
      let sequence = 0;
      for (let i = id + ID_PREFIX.length; i < end; i++) {
        const digit = bytes[i]!;
        if (digit < ZERO || digit > NINE) break;
        sequence = sequence * 10 + (digit - ZERO);
      }
      this.onEvent(sequence);
      from = end + FRAME_END.length;
    }
  }
}

/** How many of the last bytes of `bytes` (after `from`) could be the start of `id: evt_` cut by the chunk's end. */
function prefixTail(bytes: Buffer, from: number): number {
  for (let n = Math.min(ID_PREFIX.length - 1, bytes.length - from); n > 0; n--) {
    if (bytes.subarray(bytes.length - n).equals(ID_PREFIX.subarray(0, n))) return n;
  }
  return 0;
}

/** p50/p90/p99/max of `values` (ms), nearest rank; NaN when empty. */
export function latencySummary(values: readonly number[]): { count: number; p50: number; p90: number; p99: number; max: number } {
  const sorted = Float64Array.from(values).sort();
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
  return { count: sorted.length, p50: at(50), p90: at(90), p99: at(99), max: sorted.length ? sorted[sorted.length - 1]! : Number.NaN };
}
