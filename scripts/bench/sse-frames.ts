// The benchmark's Server-Sent Events reader: only what bench:push measures (each event's id, and
// when its frame was complete), with no JSON parsing, so 1,000 readers in one process cost little.

/** Splits an SSE body into complete frames as chunks arrive; hands on the `id:` of each event frame. */
export class SseIdReader {
  private pending = "";

  constructor(private readonly onEventId: (id: string) => void) {}

  /** Takes one chunk of the body (text); every frame completed by it is reported, in order. */
  push(chunk: string): void {
    this.pending += chunk;
    let end = this.pending.indexOf("\n\n");
    let start = 0;
    while (end !== -1) {
      const frame = this.pending.slice(start, end);
      // Comments (`: heartbeat`), the preamble's `retry:` and anything without an id are not events.
      const at = frame.startsWith("id: ") ? 0 : frame.indexOf("\nid: ");
      if (at !== -1) {
        const from = at === 0 ? 4 : at + 5;
        const stop = frame.indexOf("\n", from);
        this.onEventId(frame.slice(from, stop === -1 ? undefined : stop));
      }
      start = end + 2;
      end = this.pending.indexOf("\n\n", start);
    }
    this.pending = this.pending.slice(start);
  }
}

/** p50/p90/p99/max of `values` (ms), nearest rank; NaN when empty. */
export function latencySummary(values: readonly number[]): { count: number; p50: number; p90: number; p99: number; max: number } {
  const sorted = Float64Array.from(values).sort();
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
  return { count: sorted.length, p50: at(50), p90: at(90), p99: at(99), max: sorted.length ? sorted[sorted.length - 1]! : Number.NaN };
}
