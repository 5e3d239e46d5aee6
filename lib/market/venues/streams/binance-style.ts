import type { VenueId } from "../../model/types";
import { asRecord, epochMs, errorEvent, FrameUpdates, type JsonRecord, parseFrame, unexpectedFrame } from "./stream-frames";
import type { StreamEvent, StreamFields, VenueStreamProtocol } from "./stream-protocol";

/**
 * The USDⓈ-M mark-price stream as Binance defines it and Aster copies it: one all-markets stream
 * (`!markPrice@arr@1s`, every symbol every second) whose rows carry `p` mark, `i` index, `r` the
 * funding rate and `T` the next funding time. The connectors read the same figures from
 * premiumIndex (`markPrice`, `indexPrice`, `lastFundingRate`, `nextFundingTime`), and the stream's
 * `r` is that same running estimate, so it sets both the rate and the predicted rate, as
 * `runningEstimate` does for the REST answer.
 */
export interface BinanceStyleOptions {
  venue: VenueId;
  /** The socket's base: raw frames (no `{stream, data}` wrapper), subscriptions sent after opening. */
  url: string;
  stallAfterMs: number;
  maxLifetimeMs: number;
}

/** The all-markets stream at its documented 1 s rate (the other choice is 3 s). */
export const ALL_MARK_PRICES_STREAM = "!markPrice@arr@1s";

export function binanceStyleStream(options: BinanceStyleOptions): VenueStreamProtocol {
  return {
    venue: options.venue,
    // One stream covers every market, so the ids only decide whether a socket is needed at all.
    sockets: (venueMarketIds) =>
      venueMarketIds.length === 0
        ? []
        : [{ url: options.url, subscribe: [JSON.stringify({ method: "SUBSCRIBE", params: [ALL_MARK_PRICES_STREAM], id: 1 })] }],
    // The server pings (Binance every 3 min, Aster every 5); the ws library answers with a pong.
    stallAfterMs: options.stallAfterMs,
    maxLifetimeMs: options.maxLifetimeMs,
    decode: (frame) => decodeMarkPriceFrame(frame),
  };
}

/**
 * A frame of the mark-price streams: the raw all-markets array, the combined stream's
 * `{stream, data}` wrapper (an array for `!markPrice@arr`, an object for `<symbol>@markPrice`), a
 * bare single-symbol object, or the answer to a SUBSCRIBE (`{"result":null,"id":1}`, or an
 * `error`).
 */
export function decodeMarkPriceFrame(frame: string | Buffer): StreamEvent[] {
  const parsed = parseFrame(frame);
  if (!parsed.ok) return [parsed.event];
  const { value } = parsed;
  if (Array.isArray(value)) return decodeRows(value);
  const record = asRecord(value);
  if (!record) return unexpectedFrame(parsed.text);
  if (record.error !== undefined) return [errorEvent(`venue error: ${JSON.stringify(record.error)}`)];
  if ("result" in record && "id" in record) return [{ kind: "ack" }];
  if (record.code !== undefined && record.msg !== undefined) return [errorEvent(`venue error ${String(record.code)}: ${String(record.msg)}`)];
  if ("data" in record) {
    const data = record.data;
    return decodeRows(Array.isArray(data) ? data : [data]);
  }
  if (record.e === "markPriceUpdate") return decodeRows([record]);
  return unexpectedFrame(parsed.text);
}

function decodeRows(rows: readonly unknown[]): StreamEvent[] {
  const out = new FrameUpdates();
  for (const item of rows) {
    const row = asRecord(item);
    if (!row || row.e !== "markPriceUpdate" || typeof row.s !== "string" || row.s === "") {
      out.problem(`not a markPriceUpdate row: ${JSON.stringify(item).slice(0, 80)}`);
      continue;
    }
    // Since the USDⓈ-M and COIN-M streams were merged, an all-markets array may hold COIN-M rows
    // (`st: 2`); none of them is a linear market of this service.
    if (row.st === 2) continue;
    out.push(row.s, markPriceFields(row, out), epochMs(row.E) ?? null);
  }
  return out.events();
}

function markPriceFields(row: JsonRecord, out: FrameUpdates): StreamFields {
  const id = String(row.s);
  const fields: StreamFields = {};
  out.set(fields, "markPrice", row.p, id);
  out.set(fields, "indexPrice", row.i, id);
  // Delivery contracts send `T: 0` and `r: "0.00000000"`: they pay no funding, which is "none",
  // not a settlement at 1970 or a rate of zero.
  if (row.T === 0 || row.T === "0") {
    fields.fundingRate = null;
    fields.predictedFundingRate = null;
    fields.nextFundingAt = null;
    return fields;
  }
  out.set(fields, "fundingRate", row.r, id);
  out.set(fields, "predictedFundingRate", row.r, id);
  out.set(fields, "nextFundingAt", row.T, id);
  return fields;
}
