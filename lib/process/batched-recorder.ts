import { startPeriodicTask, type PeriodicTask } from "./periodic-task";

/**
 * Something the request path records in memory and this process writes to the database in
 * batches, off that path: every few seconds, and once more when stopped (shutdown, the end of a
 * test). A subclass's `write` keeps what it could not write for the next one.
 */
export abstract class BatchedRecorder {
  private task: PeriodicTask | undefined;
  private writing: Promise<void> = Promise.resolve();

  /** `what` names the recording in the log line of a failed flush, e.g. "recording API usage". */
  protected constructor(private readonly what: string) {}

  /** Writes what was recorded since the last write. */
  protected abstract write(): Promise<void>;

  /**
   * Writes everything recorded so far. A flush called while the timer's write is in flight waits
   * for it: otherwise it would find nothing pending and return before those counts are stored.
   */
  flush(): Promise<void> {
    // The write before this one failed where it was awaited (the timer's task logs it, a flush's caller gets it).
    const next = this.writing.catch(() => undefined).then(() => this.write());
    this.writing = next;
    return next;
  }

  start(intervalMs = 5_000): void {
    this.task ??= startPeriodicTask(this.what, intervalMs, () => this.flush(), { runNow: false });
  }

  async stop(): Promise<void> {
    this.task?.stop();
    this.task = undefined;
    await this.flush();
  }
}
