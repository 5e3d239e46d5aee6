/**
 * Work cut into slices: a generator whose every `yield` is a point where it may pause, and which
 * returns its result. One implementation runs either way, so both give exactly the same result:
 * at once (`runWhole`), or giving the event loop a turn now and then (`runInSlices`), for work on a
 * thread that also answers requests, where a few hundred milliseconds at once hold every request
 * and stream message back.
 */
export type Sliced<T> = Generator<void, T, void>;

/** How long a slice of a round's work runs before the event loop gets a turn, unless told otherwise. */
export const DEFAULT_SLICE_MS = 15;

/** Runs sliced work start to end without pausing. */
export function runWhole<T>(work: Sliced<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/**
 * How long sliced work runs, at the least, between two waits for urgent work (`yieldSlicesTo`): so
 * that urgent work coming back to back cannot starve it.
 */
export const MIN_RUN_BETWEEN_YIELDS_MS = 100;

/** The thread's urgent work, if any is registered: what sliced work waits for at its pauses. */
let urgent: (() => Promise<unknown> | undefined) | undefined;

/**
 * Makes sliced work on this thread wait, at its pauses, for the work `pending` answers while it is
 * in flight (the micro-batch publishing news), having run at least MIN_RUN_BETWEEN_YIELDS_MS since
 * its last wait. A round's ranking and event diff are reconciliation and may take longer; a batch
 * competing with their slices for the thread took seconds instead of a few hundred milliseconds,
 * which was the freshness benchmark's tail. Answers the function that removes it.
 */
export function yieldSlicesTo(pending: () => Promise<unknown> | undefined): () => void {
  urgent = pending;
  return () => {
    if (urgent === pending) urgent = undefined;
  };
}

/**
 * Runs sliced work, giving the event loop a turn (a `setImmediate`, after any I/O waiting) at the
 * first pause point once a slice has run `sliceMs`; 0 pauses at every one. The work must not
 * depend on anything that can change while it pauses.
 */
export async function runInSlices<T>(work: Sliced<T>, sliceMs = DEFAULT_SLICE_MS): Promise<T> {
  let started = performance.now();
  let ranSinceYield = 0;
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    const ran = performance.now() - started;
    if (ran >= sliceMs) {
      ranSinceYield += ran;
      await new Promise((resolve) => setImmediate(resolve));
      if (ranSinceYield >= MIN_RUN_BETWEEN_YIELDS_MS) {
        const pending = urgent?.();
        if (pending) {
          await pending.catch(() => undefined);
          ranSinceYield = 0;
        }
      }
      started = performance.now();
    }
  }
}
