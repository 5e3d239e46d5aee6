import { redirectLogs } from "@/lib/observability/logger";
import type { LogLevel } from "@/lib/observability/log-level";

/** One log line as written (lib/observability/logger.ts), parsed. */
export interface LogRecord {
  level: string;
  time: string;
  msg: string;
  component?: string;
  request_id?: string;
  account?: string;
  err?: { type: string; message: string; stack: string };
  [field: string]: unknown;
}

export interface CapturedLogs {
  /** The lines written since capturing began, parsed, oldest first. */
  records(): LogRecord[];
  /** Those whose `msg` contains `text`. */
  matching(text: string): LogRecord[];
  /** Sends the lines back where they went before. */
  restore(): void;
}

/**
 * Captures the service's log lines (which the tests otherwise keep silent: quiet-logs.ts) (at `level` and above, every line by default) instead of
 * writing them out; call `restore` in the test's cleanup.
 */
export function captureLogs(level: LogLevel = "trace"): CapturedLogs {
  const lines: string[] = [];
  const restore = redirectLogs({ write: (line: string) => void lines.push(line) }, level);
  const records = () => lines.map((line) => JSON.parse(line) as LogRecord);
  return { records, matching: (text) => records().filter((r) => r.msg.includes(text)), restore };
}
