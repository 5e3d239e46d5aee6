import { z } from "zod";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const logLevel = z.enum(LOG_LEVELS);

/**
 * LOG_LEVEL, or `info`; under vitest `silent` unless LOG_LEVEL says otherwise, so a test's output is
 * its own (tests that assert on log lines capture them: tests/support/capture-logs.ts).
 */
export function configuredLogLevel(env: NodeJS.ProcessEnv = process.env): LogLevel {
  const configured = env.LOG_LEVEL?.trim().toLowerCase();
  if (configured) {
    const parsed = logLevel.safeParse(configured);
    if (!parsed.success) throw new Error(`Invalid configuration: LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(env.LOG_LEVEL)}`);
    return parsed.data;
  }
  return env.VITEST ? "silent" : "info";
}
