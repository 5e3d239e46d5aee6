import { gunzipSync } from "node:zlib";
import { readNumber } from "../connectors/build-snapshot";
import { asRecord } from "../connectors/venue-adapter";
import type { StreamEvent, StreamFields, StreamSocketPlan, StreamUpdate } from "./stream-protocol";

// What every protocol module does the same way: read a frame (gunzipped where the venue
// compresses) as JSON, read a venue's numbers and times into StreamFields values, gather a frame's
// updates, and cut a list of subscriptions into frames and sockets the venue accepts. Nothing here
// throws: a frame that cannot be read is an `error` event, not an exception.

export type JsonRecord = Record<string, unknown>;

export { asRecord };

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A non-empty string, else undefined. */
export function asString(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The first two bytes of a gzip member (RFC 1952). */
const GZIP_MAGIC = [0x1f, 0x8b] as const;

/** A frame's text: a gzip Buffer (HTX, CoinEx) is inflated, any other Buffer read as UTF-8. */
export function frameText(frame: string | Buffer): string {
  if (typeof frame === "string") return frame;
  if (frame.length >= 2 && frame[0] === GZIP_MAGIC[0] && frame[1] === GZIP_MAGIC[1]) return gunzipSync(frame).toString("utf8");
  return frame.toString("utf8");
}

/** Whether the frame is exactly this bare, non-JSON text (the `pong` OKX, Bitget and BitMEX answer a `ping` with). */
export function isBareText(frame: string | Buffer, text: string): boolean {
  try {
    return frameText(frame) === text;
  } catch {
    return false;
  }
}

export type ParsedFrame = { ok: true; text: string; value: unknown } | { ok: false; event: StreamEvent };

/** The frame as JSON (and its text), or the one `error` event saying why it could not be read. */
export function parseFrame(frame: string | Buffer): ParsedFrame {
  let text: string;
  try {
    text = frameText(frame);
  } catch (error) {
    return { ok: false, event: errorEvent(`undecodable binary frame: ${error instanceof Error ? error.message : String(error)}`) };
  }
  try {
    return { ok: true, text, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, event: errorEvent(`not JSON: ${clip(text)}`) };
  }
}

/**
 * Decodes a frame whose every message is a JSON object: what is not JSON, or not an object, is the
 * one error event; the rest is `read`'s, given the object and the frame's text for its messages.
 */
export function decodeMessage(frame: string | Buffer, read: (message: JsonRecord, text: string) => StreamEvent[]): StreamEvent[] {
  const parsed = parseFrame(frame);
  if (!parsed.ok) return [parsed.event];
  const message = asRecord(parsed.value);
  return message ? read(message, parsed.text) : unexpectedFrame(parsed.text);
}

/** Keeps an error message short: a frame can be megabytes. */
export function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export function errorEvent(message: string): StreamEvent {
  return { kind: "error", message };
}

/** JSON of no shape the venue sends: one error event, never a silent nothing. */
export function unexpectedFrame(text: string): StreamEvent[] {
  return [errorEvent(`unexpected frame: ${clip(text)}`)];
}

/**
 * A venue number as a StreamFields value: a key the frame lacks is `undefined` (absent, unchanged);
 * `null` or `""` is the venue saying "none" (`null`); a JSON number or a decimal string is the number.
 * Anything else (a garbled string, NaN, an object, a string past a double's range) is `undefined`,
 * never NaN: FrameUpdates reports it, the presentFields style leaves it out.
 */
export function venueNumber(value: unknown): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === "") return null;
  // The REST connectors' reading of a venue's number; a stream has no row to reject, so garbled is absent.
  const number = readNumber(value);
  return number !== undefined && Number.isFinite(number) ? number : undefined;
}

/** An epoch-ms time from a number or a string of digits; `undefined` when absent or unusable. */
export function epochMs(value: unknown): number | undefined {
  const n = venueNumber(value);
  return n !== undefined && n !== null && n > 0 ? n : undefined;
}

/** A settlement time as a StreamFields value: absent stays absent, the venue's null or "" is null. */
export function timeField(value: unknown): number | null | undefined {
  if (value === null || value === "") return null;
  return epochMs(value);
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

/**
 * The updates of one frame and the values it could not read. A field is set only where the
 * message carries its key: an absent key stays absent (a delta, a channel that never sends it), an
 * empty string or null is the venue saying "none" (Bybit's `""` on dated futures, OKX's `""` next
 * rate), and a garbled value is left out and reported, so one bad number never becomes a rate.
 */
export class FrameUpdates {
  private readonly updates: StreamUpdate[] = [];
  private readonly problems: string[] = [];

  /** Reads `raw` (after `convert`, for percent or per-8h figures) into `fields[key]`. */
  set(fields: StreamFields, key: keyof StreamFields, raw: unknown, venueMarketId: string, convert?: (value: number) => number): void {
    if (raw === undefined) return;
    const value = venueNumber(raw);
    if (value === undefined) {
      this.problems.push(`${venueMarketId} ${key}: ${JSON.stringify(raw)}`);
      return;
    }
    fields[key] = value === null || !convert ? value : convert(value);
  }

  /** A market's update; one without any field (a delta of volumes only) says nothing and is dropped. */
  push(venueMarketId: string, fields: StreamFields, venueTime: number | null): void {
    if (Object.keys(fields).length === 0) return;
    this.updates.push({ venueMarketId, fields, venueTime });
  }

  /** A row the protocol could not place (no market id, wrong shape). */
  problem(message: string): void {
    this.problems.push(message);
  }

  events(): StreamEvent[] {
    const events: StreamEvent[] = [];
    if (this.updates.length > 0) events.push({ kind: "updates", updates: this.updates });
    if (this.problems.length > 0) events.push(errorEvent(`unreadable values: ${this.problems.join("; ")}`));
    return events;
  }
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

/** Splits `items` into runs of at most `size`. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/** Each market once, in first-seen order: a market listed twice is subscribed once. */
export function distinct(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

/**
 * Subscribe frames for `items`, each holding at most `maxItems` of them and at most `maxBytes`
 * bytes once rendered, in order. `render` must embed the chunk as one JSON array (`args`,
 * `payload`), so a frame's size is the empty frame's plus each item's JSON and a comma. An item too
 * large for an empty frame still gets a frame of its own (the venue then refuses it, which `decode`
 * reports), rather than vanishing.
 */
export function subscribeFrames<T>(
  items: readonly T[],
  limits: { maxItems: number; maxBytes?: number },
  render: (chunk: readonly T[]) => string,
): string[] {
  const emptyBytes = Buffer.byteLength(render([]));
  const chunks: T[][] = [];
  let current: T[] = [];
  let bytes = emptyBytes;
  for (const item of items) {
    const itemBytes = Buffer.byteLength(JSON.stringify(item)) + 1;
    const full = current.length >= limits.maxItems || (limits.maxBytes !== undefined && bytes + itemBytes > limits.maxBytes);
    if (current.length > 0 && full) {
      chunks.push(current);
      current = [];
      bytes = emptyBytes;
    }
    current.push(item);
    bytes += itemBytes;
  }
  if (current.length > 0) chunks.push(current);
  return chunks.map(render);
}

/** One socket per `perSocket` markets, each subscribing its own markets. */
export function socketsOf(
  url: string,
  venueMarketIds: readonly string[],
  perSocket: number,
  frames: (ids: readonly string[]) => string[],
): StreamSocketPlan[] {
  return chunk(distinct(venueMarketIds), perSocket).map((ids) => ({ url, subscribe: frames(ids) }));
}
