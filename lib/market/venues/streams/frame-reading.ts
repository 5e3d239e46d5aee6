import { gunzipSync } from "node:zlib";
import type { StreamEvent, StreamFields, StreamUpdate } from "./stream-protocol";

// What every venue protocol needs to read a frame: its text (gunzipped where the venue compresses),
// its JSON, and numbers written as strings, numbers or "" — without ever throwing, since a frame
// that cannot be read is an `error` event, not an exception.

/** The first two bytes of a gzip member (RFC 1952). */
const GZIP_MAGIC = [0x1f, 0x8b] as const;

/** A frame's text: a gzip Buffer (HTX, CoinEx) is inflated, any other Buffer read as UTF-8. */
export function frameText(frame: string | Buffer): string {
  if (typeof frame === "string") return frame;
  if (frame.length >= 2 && frame[0] === GZIP_MAGIC[0] && frame[1] === GZIP_MAGIC[1]) return gunzipSync(frame).toString("utf8");
  return frame.toString("utf8");
}

export type ParsedFrame = { ok: true; text: string; value: unknown } | { ok: false; event: StreamEvent };

/** The frame as JSON, or the one `error` event saying why it could not be read. */
export function parseFrame(frame: string | Buffer): ParsedFrame {
  let text: string;
  try {
    text = frameText(frame);
  } catch (error) {
    return { ok: false, event: { kind: "error", message: `undecodable binary frame: ${describe(error)}` } };
  }
  try {
    return { ok: true, text, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, event: { kind: "error", message: `not JSON: ${clip(text)}` } };
  }
}

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * A venue number as a StreamFields value: a key the frame lacks is `undefined` (absent, unchanged);
 * `null` or `""` is the venue saying "none" (`null`); a JSON number or a decimal string is the number.
 * Anything else (a garbled string, NaN, an object) is left absent rather than written as NaN.
 */
export function venueNumber(value: unknown): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === "") return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string" && /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(value)) return Number(value);
  return undefined;
}

/** An epoch-ms time from a number or a string of digits; `undefined` when absent or unusable. */
export function epochMs(value: unknown): number | undefined {
  const n = venueNumber(value);
  return n !== undefined && n !== null && n > 0 ? n : undefined;
}

/** An ISO 8601 time as epoch ms, `undefined` when absent or unparseable. */
export function isoMs(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const at = Date.parse(value);
  return Number.isFinite(at) ? at : undefined;
}

/**
 * A nanosecond time as epoch ms. A string of digits is cut rather than divided: 19-digit integers
 * are past a double's exact range. A JSON number (already rounded by JSON.parse) is divided.
 */
export function nanosecondsMs(value: unknown): number | undefined {
  if (typeof value === "string" && /^\d{7,}$/.test(value)) return Number(value.slice(0, -6));
  if (typeof value === "number" && Number.isFinite(value) && value > 0) return Math.floor(value / 1e6);
  return undefined;
}

/** The fields with a value (number or null); the ones left `undefined` are dropped, so they stay absent. */
export function presentFields(fields: StreamFields): StreamFields {
  const out: StreamFields = {};
  for (const key of Object.keys(fields) as (keyof StreamFields)[]) {
    const value = fields[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** An update, or nothing when the row carried none of the fields the service reads. */
export function updateOf(venueMarketId: string | undefined, fields: StreamFields, venueTime: number | undefined): StreamUpdate[] {
  if (venueMarketId === undefined || Object.keys(fields).length === 0) return [];
  return [{ venueMarketId, fields, venueTime: venueTime ?? null }];
}

/** Updates as events: a frame that changed no market still says the connection is alive. */
export function updatesEvent(updates: StreamUpdate[]): StreamEvent[] {
  return updates.length > 0 ? [{ kind: "updates", updates }] : [{ kind: "heartbeat" }];
}

export function unknownFrame(text: string): StreamEvent[] {
  return [{ kind: "error", message: `unrecognised frame: ${clip(text)}` }];
}

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Keeps an error message short: a frame can be megabytes. */
export function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Each market once, in first-seen order: a market listed twice is subscribed once. */
export function distinct(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

/** A settlement time as a StreamFields value: absent stays absent, the venue's null or "" is null. */
export function timeField(value: unknown): number | null | undefined {
  if (value === null || value === "") return null;
  return epochMs(value);
}
