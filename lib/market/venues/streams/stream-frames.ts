import { readNumber } from "../connectors/build-snapshot";
import { asRecord } from "../connectors/venue-adapter";
import type { StreamEvent, StreamFields, StreamSocketPlan, StreamUpdate } from "./stream-protocol";

// What every protocol module does the same way: parse a frame, read a venue's number into a
// StreamFields value, gather a frame's updates and the values it could not read, and cut a list of
// subscriptions into frames and sockets the venue accepts.

export type JsonRecord = Record<string, unknown>;

/** A frame as text: binary frames are UTF-8 JSON on every venue of this folder. */
export function frameText(frame: string | Buffer): string {
  return typeof frame === "string" ? frame : frame.toString("utf8");
}

/** The frame's JSON, or the error event saying it is not JSON. */
export function parseFrame(frame: string | Buffer): { value: unknown } | { error: StreamEvent } {
  const text = frameText(frame);
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { error: errorEvent(`not JSON: ${text.slice(0, 120)}`) };
  }
}

export function errorEvent(message: string): StreamEvent {
  return { kind: "error", message };
}

export { asRecord };

/** Epoch ms from a number or a string of digits; undefined when absent or garbled. */
export function readTime(value: unknown): number | undefined {
  const time = readNumber(value);
  return time !== undefined && Number.isFinite(time) ? time : undefined;
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
    const value = readNumber(raw);
    if (value === undefined) {
      fields[key] = null;
      return;
    }
    if (!Number.isFinite(value)) {
      this.problems.push(`${venueMarketId} ${key}: ${JSON.stringify(raw)}`);
      return;
    }
    fields[key] = convert ? convert(value) : value;
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

/** Splits `items` into runs of at most `size`. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
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
  return chunk([...new Set(venueMarketIds)], perSocket).map((ids) => ({ url, subscribe: frames(ids) }));
}
