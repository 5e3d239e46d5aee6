import { startPeriodicTask, type PeriodicTask } from "./periodic-task";

/**
 * Something the request path records in memory and this process writes to the database in
 * batches, off that path: every few seconds, and once more when stopped (shutdown, the end of a
 * test). A subclass's `flush` keeps what it could not write for the next one.
 */
export abstract class BatchedRecorder {
  private task: PeriodicTask | undefined;

  /** `what` names the recording in the log line of a failed flush, e.g. "recording API usage". */
  protected constructor(private readonly what: string) {}

  abstract flush(): Promise<void>;

  start(intervalMs = 5_000): void {
    this.task ??= startPeriodicTask(this.what, intervalMs, () => this.flush(), { runNow: false });
  }

  async stop(): Promise<void> {
    this.task?.stop();
    this.task = undefined;
    await this.flush();
  }
}
