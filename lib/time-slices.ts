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
 * Runs sliced work, giving the event loop a turn (a `setImmediate`, after any I/O waiting) at the
 * first pause point once a slice has run `sliceMs`; 0 pauses at every one. The work must not
 * depend on anything that can change while it pauses.
 */
export async function runInSlices<T>(work: Sliced<T>, sliceMs = DEFAULT_SLICE_MS): Promise<T> {
  let started = performance.now();
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    if (performance.now() - started >= sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      started = performance.now();
    }
  }
}
