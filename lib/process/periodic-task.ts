import { logger } from "@/lib/observability/logger";

const log = logger("tasks");

/** A background job started with the server; `stop` ends it at shutdown. */
export interface PeriodicTask {
  /** One more run now, outside the schedule (logged alike). */
  run(): void;
  stop(): void;
}

export interface StartedTask extends PeriodicTask {
  /** The run started at once, settled when it ends (failed or not; settled already when `runNow` was false). */
  firstRun: Promise<void>;
}

/**
 * Runs `task` every `intervalMs` (and at once unless `runNow` is false), in the background: the
 * timer never keeps the process alive, and a failure is logged as "<what> failed" and waits for the
 * next turn. For the servers' sweeps (expired idempotency records, old usage, ended grace periods),
 * which every server may run because their deletes and updates repeat harmlessly.
 */
export function startPeriodicTask(what: string, intervalMs: number, task: () => Promise<unknown>, { runNow = true } = {}): StartedTask {
  const run = () =>
    task().then(
      () => undefined,
      (error: unknown) => log.error({ err: error }, `${what} failed`),
    );
  const firstRun = runNow ? run() : Promise.resolve();
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return { run: () => void run(), firstRun, stop: () => clearInterval(timer) };
}
