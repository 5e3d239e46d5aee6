/**
 * When a failed delivery is tried again: after the first attempt fails, 5 s later, then 1 min,
 * 5 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h and four times 12 h (about 71 h 36 min after the first
 * attempt), each delay moved by up to ±10 % at random so endpoints that failed together are not
 * retried together. No attempt is scheduled later than RETRY_WINDOW_MS (3 days, as Stripe and Svix
 * retry) after the delivery was created; after the fourteenth attempt, or past that window, the
 * delivery has failed (it can still be redelivered by hand, or replayed).
 */
export const RETRY_DELAYS_MS = [
  5_000, 60_000, 300_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 28_800_000, 43_200_000, 43_200_000, 43_200_000, 43_200_000,
] as const;
export const RETRY_WINDOW_MS = 3 * 86_400_000;
export const JITTER = 0.1;

/**
 * The time of the next attempt after `attempts` failed ones, or null when the delivery has failed
 * for good. `random` in [0, 1) picks the jitter.
 */
export function nextAttemptAt(attempts: number, createdAt: Date, failedAt: Date, random: number = Math.random()): Date | null {
  const delay = RETRY_DELAYS_MS[attempts - 1];
  if (delay === undefined) return null;
  const deadline = createdAt.getTime() + RETRY_WINDOW_MS;
  if (failedAt.getTime() >= deadline) return null;
  const jittered = delay * (1 + JITTER * (2 * random - 1));
  return new Date(Math.min(deadline, failedAt.getTime() + Math.round(jittered)));
}
