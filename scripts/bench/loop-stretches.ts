import { monitorEventLoopDelay } from "node:perf_hooks";

/**
 * The event loop's longest stretches without a turn, from now until stop(): a 5 ms timer notes each
 * gap between its runs longer than `overMs` (when it ended, how long), and monitorEventLoopDelay
 * the largest delay of all. What a request or stream message arriving meanwhile would have waited.
 */
export function loopStretches(overMs = 50) {
  const stretches: { endedAt: number; ms: number }[] = [];
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last > overMs) stretches.push({ endedAt: now, ms: now - last });
    last = now;
  }, 5);
  return {
    stop() {
      clearInterval(timer);
      delay.disable();
      return { stretches, maxMs: delay.max / 1e6 };
    },
  };
}
