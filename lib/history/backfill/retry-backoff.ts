/** Failed tries of one market before it is left `failed` (a later run, or the CLI, tries it again). */
export const MAX_ATTEMPTS = 8;

const BASE_MS = 30_000;
const CAP_MS = 6 * 3_600_000;

/**
 * How long a market waits after its `attempts`-th failure in a row: 30 s doubling up to 6 h, half of
 * it fixed and half random ("equal jitter"), so markets that failed together (a venue's outage)
 * do not all come back in the same second, and none comes back sooner than half its step.
 */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const step = Math.min(CAP_MS, BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(step / 2 + random() * (step / 2));
}
