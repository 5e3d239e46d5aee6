import pino, { type DestinationStream, type Logger } from "pino";
import { processSingleton } from "@/lib/singleton";
import { configuredLogLevel, type LogLevel } from "./log-level";
import { currentRequestContext } from "./request-context";

export type { Logger } from "pino";

/** Where the lines go: stdout, written synchronously (a line logged just before exit is not lost). */
interface Sink extends DestinationStream {
  target: DestinationStream;
}

interface LogState {
  sink: Sink;
  root: Logger;
  /** One logger per component, so a change of level reaches every one of them (pino's children keep their own). */
  components: Map<string, Logger>;
}

function createState(): LogState {
  // A misspelt LOG_LEVEL must not stop every module that logs from loading: info, and a line saying so.
  let level: LogLevel = "info";
  let problem: string | undefined;
  try {
    level = configuredLogLevel();
  } catch (error) {
    problem = (error as Error).message;
  }
  const sink: Sink = {
    target: pino.destination({ dest: 1, sync: true }),
    write(line: string) {
      this.target.write(line);
    },
  };
  const root = pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // The request a line was written under, wherever in the call tree it was written.
      mixin() {
        const context = currentRequestContext();
        if (!context) return {};
        const account = context.account;
        return account === undefined ? { request_id: context.requestId } : { request_id: context.requestId, account };
      },
    },
    sink,
  );
  if (problem) root.warn(`${problem}; logging at info`);
  return { sink, root, components: new Map() };
}

// One per process: server.ts's copy of lib/ and Next's write to the same stdout at the same level.
const state = () => processSingleton("logger", createState);

/**
 * The logger of one part of the service (`logger("ingest")`): JSON lines with `time`, `level`,
 * `pid`, `component`, the request's `request_id` and `account` when written under one
 * (lib/observability/request-context.ts), the call's fields, and `msg`. Errors go under `err`:
 * `log.error({ err, roundId }, "ingestion round failed")`.
 */
export function logger(component: string): Logger {
  const { root, components } = state();
  let child = components.get(component);
  if (!child) {
    child = root.child({ component });
    components.set(component, child);
  }
  return child;
}

/** Sets the level of every component's logger (and of loggers made from them afterwards). */
export function setLogLevel(level: LogLevel): void {
  const { root, components } = state();
  root.level = level;
  for (const child of components.values()) child.level = level;
}

/** The level lines are written at now. */
export function logLevel(): LogLevel {
  return state().root.level as LogLevel;
}

/**
 * Sends every line to `target` at `level` instead (tests read what was logged); the function
 * returned puts the destination and level back.
 */
export function redirectLogs(target: DestinationStream, level: LogLevel): () => void {
  const { sink } = state();
  const before = { target: sink.target, level: logLevel() };
  sink.target = target;
  setLogLevel(level);
  return () => {
    sink.target = before.target;
    setLogLevel(before.level);
  };
}
