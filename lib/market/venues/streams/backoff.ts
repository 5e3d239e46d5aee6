/** How long a stream waits before opening a socket again, and when its count of failures is forgotten. */
export interface BackoffPolicy {
  /** The wait after the first failure. */
  initialMs: number;
  /** The longest wait, however many failures came before. */
  maxMs: number;
  /**
   * A socket that stayed open this long and carried market data is healthy: the failures before it
   * no longer lengthen the wait after its own drop.
   */
  resetAfterMs?: number;
}

export const DEFAULT_BACKOFF: Required<BackoffPolicy> = { initialMs: 1_000, maxMs: 60_000, resetAfterMs: 60_000 };

/**
 * The wait before reconnect attempt `attempt` (0 = the first after a failure): `initialMs` doubled
 * per attempt up to `maxMs`, then "equal jitter", between half of it and all of it, so that the
 * sockets of every venue dropped by one network blip do not all come back in the same millisecond.
 * `random` is in [0, 1), as Math.random.
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(attempt, 0), 30);
  const ceiling = Math.min(policy.maxMs, policy.initialMs * 2 ** exponent);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
