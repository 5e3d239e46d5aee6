import { AppError } from "../../errors";

/**
 * Reading a venue's history answer: each venue writes numbers as strings or numbers and times as
 * ms, seconds or ISO text, so every reader goes through these and a garbled answer fails loudly
 * (the backfill retries or records the failure) instead of storing NaN.
 */

/** The answer did not have the shape the venue documents. */
export function unexpectedAnswer(exchange: string, what: string): AppError {
  return new AppError("VENUE_UNAVAILABLE", `${exchange} funding history: ${what}`);
}

/** A decimal the venue writes as a string or a number. */
export function decimal(exchange: string, value: unknown, field: string): number {
  const parsed = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
  if (!Number.isFinite(parsed)) throw unexpectedAnswer(exchange, `${field} is not a number (${JSON.stringify(value)})`);
  return parsed;
}

/** Epoch milliseconds the venue writes as an integer or a string of one, in `unit`. */
export function epochMs(exchange: string, value: unknown, field: string, unit: "ms" | "s" = "ms"): number {
  const parsed = decimal(exchange, value, field);
  return unit === "s" ? parsed * 1000 : parsed;
}

/** Epoch milliseconds of an ISO-8601 text (dYdX `effectiveAt`). */
export function isoMs(exchange: string, value: unknown, field: string): number {
  const parsed = typeof value === "string" ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(parsed)) throw unexpectedAnswer(exchange, `${field} is not an ISO time (${JSON.stringify(value)})`);
  return parsed;
}

/** The object at `path` in an answer (`["result", "list"]`), or a failure naming where it broke. */
export function at(exchange: string, answer: unknown, path: readonly string[]): unknown {
  let value = answer;
  for (const key of path) {
    if (typeof value !== "object" || value === null || !(key in value)) throw unexpectedAnswer(exchange, `no ${path.join(".")}`);
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** The array at `path` (the answer itself for `[]`), as rows. */
export function rowsAt(exchange: string, answer: unknown, path: readonly string[] = []): Record<string, unknown>[] {
  const value = path.length === 0 ? answer : at(exchange, answer, path);
  if (!Array.isArray(value)) throw unexpectedAnswer(exchange, `${path.length === 0 ? "the answer" : path.join(".")} is not a list`);
  return value.map((row) => (typeof row === "object" && row !== null ? (row as Record<string, unknown>) : {}));
}

/** `base` with the defined `params` as its query, in the order given (the venue docs' order). */
export function withQuery(base: string, params: Record<string, string | number | undefined>): string {
  const query = Object.entries(params)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`);
  return query.length === 0 ? base : `${base}?${query.join("&")}`;
}

/** A cursor the reader wrote itself (a time or a page number) read back. */
export function cursorNumber(exchange: string, cursor: string): number {
  const parsed = Number(cursor);
  if (!Number.isSafeInteger(parsed)) throw unexpectedAnswer(exchange, `cursor ${cursor} is not an integer`);
  return parsed;
}

/**
 * One window of a backward walk by time, for venues whose answer holds at most `limit` rows and
 * gives no page cursor we can trust: each request asks [start, end] no longer than `widthMs`,
 * chosen so the window cannot hold more settlements than one answer returns; the next window
 * ends just before this one starts.
 */
export function backwardWindow(
  range: { since: number; until: number },
  cursor: string | null,
  widthMs: number,
  exchange: string,
): { start: number; end: number; next: string | null } {
  const end = cursor === null ? range.until : cursorNumber(exchange, cursor);
  const start = Math.max(range.since, end - widthMs + 1);
  return { start, end, next: start > range.since ? String(start - 1) : null };
}
