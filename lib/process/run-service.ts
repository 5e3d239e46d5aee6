// The start/stop scaffold of the long-running processes (server.ts, scripts/worker.ts): a failure to
// start is printed as "Cannot start: …" and exits 1; the first SIGINT or SIGTERM runs the process's
// own stop, then exits 0, and signals that arrive while it runs are ignored.
import { DataDirLockedError } from "@/lib/db/data-dir-lock";
import { logger } from "@/lib/observability/logger";

const log = logger("process");

/** What of `process` the scaffold uses; tests pass a fake. */
export interface ServiceProcess {
  on(event: NodeJS.Signals, listener: () => void): unknown;
  exit(code: number): void;
}

export type Stop = (signal: NodeJS.Signals) => Promise<void>;

export const SHUTDOWN_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM"];

/** Runs `stop` for the first shutdown signal only, then exits 0. */
export function onShutdown(stop: Stop, target: ServiceProcess = process): void {
  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    await stop(signal);
    target.exit(0);
  };
  for (const signal of SHUTDOWN_SIGNALS) target.on(signal, () => void shutdown(signal));
}

/** Starts the service; if `main` fails, says why it cannot start and exits 1. */
export function runService(main: () => Promise<void>, target: Pick<ServiceProcess, "exit"> = process): Promise<void> {
  return main().catch((error: unknown) => {
    if (error instanceof DataDirLockedError) log.fatal(`Cannot start: ${error.message}`);
    else log.fatal({ err: error }, `Cannot start: ${error instanceof Error ? error.message : String(error)}`);
    target.exit(1);
  });
}
