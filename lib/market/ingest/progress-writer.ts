/**
 * Writes a round's progress as venues answer, the newest only: at most one write in flight, and a
 * value pushed meanwhile replaces any still waiting, since a write per venue, one after another (each
 * UPDATE its own commit), would keep one of the database driver's two connections busy through the
 * fetch and make the round wait for the last of them.
 * Progress is for watchers (GET /v1/exchanges): only the newest state of it matters.
 */
export class ProgressWriter<T> {
  private inFlight: Promise<void> | undefined;
  private waiting: { value: T } | undefined;
  private closed = false;

  constructor(
    private readonly write: (value: T) => Promise<unknown>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** The round's newest progress; written now, or once the write in flight ends. */
  push(value: T): void {
    if (this.closed) return;
    this.waiting = { value };
    this.inFlight ??= this.drain();
  }

  /**
   * No more progress: whatever still waits is dropped (the round's own final write says more), and
   * the promise settles once the write in flight, if any, has ended, so nothing written after it
   * can be overwritten by an older state.
   */
  close(): Promise<void> {
    this.closed = true;
    this.waiting = undefined;
    return this.inFlight ?? Promise.resolve();
  }

  private async drain(): Promise<void> {
    // Taken before the first await: a push in the same tick joins this write's loop, never a second one.
    for (let next = this.waiting; next; next = this.waiting) {
      this.waiting = undefined;
      try {
        await this.write(next.value);
      } catch (error) {
        this.onError(error);
      }
    }
    this.inFlight = undefined;
  }
}
