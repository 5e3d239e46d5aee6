export class DeadlineExceededError extends Error {
  override readonly name = "DeadlineExceededError";
}

/**
 * Settles with `work` or rejects after `ms`, whichever comes first. The abandoned work keeps
 * running (ccxt aborts its own request at the same timeout), so its late rejection is swallowed
 * here rather than surfacing as an unhandled rejection.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, label: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceededError(`${label} timed out after ${ms} ms`)), ms);
  });
  work.catch(() => undefined); // before the deadline its rejection still reaches the race below
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
