// The soak's rate-limit check: per key, the admitted (2xx) requests in each fixed 60 s window of
// the limiter (the window an answer belongs to is the one its X-RateLimit-Reset closes), and, for
// information, the most admitted in any 60 s span as the client saw them.

export interface WindowStats {
  /** Most 2xx answers of one key in one of the limiter's fixed windows. */
  maxInWindow: number;
  /** Most 2xx answers of one key received within any 60 s span (sliding, client clock). */
  maxInSpan: number;
}

export class WindowCounts {
  /** key index → window index → admitted count */
  private readonly byWindow = new Map<number, Map<number, number>>();
  /** key index → receive times (ms) of admitted answers, in arrival order */
  private readonly times = new Map<number, number[]>();

  constructor(private readonly windowMs = 60_000) {}

  /**
   * Records one admitted answer. `resetS` is its X-RateLimit-Reset (epoch seconds, rounded up, the
   * end of the window that admitted it); `receivedAt` the client's clock when it arrived.
   */
  admitted(key: number, resetS: number, receivedAt: number): void {
    const window = Math.ceil((resetS * 1000) / this.windowMs) - 1;
    let windows = this.byWindow.get(key);
    if (!windows) this.byWindow.set(key, (windows = new Map()));
    windows.set(window, (windows.get(window) ?? 0) + 1);
    let times = this.times.get(key);
    if (!times) this.times.set(key, (times = []));
    times.push(receivedAt);
  }

  stats(key: number): WindowStats {
    const windows = this.byWindow.get(key);
    const maxInWindow = windows ? Math.max(...windows.values()) : 0;
    return { maxInWindow, maxInSpan: maxInSpan(this.times.get(key) ?? [], this.windowMs) };
  }

  keys(): number[] {
    return [...this.byWindow.keys()];
  }
}

/** The most timestamps within any half-open span of `spanMs` (two pointers over sorted times). */
export function maxInSpan(times: readonly number[], spanMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (sorted[end]! - sorted[start]! >= spanMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}
