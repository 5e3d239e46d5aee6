import { z } from "zod";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const logLevel = z.enum(LOG_LEVELS);

/** LOG_LEVEL, or `info`. (The tests run `silent` unless LOG_LEVEL is set: tests/support/quiet-logs.ts.) */
export function configuredLogLevel(env: Readonly<Record<string, string | undefined>> = process.env): LogLevel {
  const configured = env.LOG_LEVEL?.trim().toLowerCase();
  if (!configured) return "info";
  const parsed = logLevel.safeParse(configured);
  if (!parsed.success) throw new Error(`Invalid configuration: LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(env.LOG_LEVEL)}`);
  return parsed.data;
}
