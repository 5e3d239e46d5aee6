import { asRecord, decodeMessage, epochMs, errorEvent, FrameUpdates, type JsonRecord, socketsOf, subscribeFrames, unexpectedFrame } from "./stream-frames";
import type { StreamEvent, StreamFields, VenueStreamProtocol } from "./stream-protocol";

const URL = "wss://stream.bybit.com/v5/public/linear";

/** Bybit documents 21,000 characters of `args` per subscribe request. */
const MAX_ARGS_CHARS = 21_000;

/**
 * Bybit states no cap on topics per public connection. A `tickers.<symbol>` topic pushes every
 * 100 ms, so a few hundred markets on one socket is already thousands of frames a second; markets
 * are spread over sockets of 200 (a choice, not a venue limit).
 */
const MARKETS_PER_SOCKET = 200;

/**
 * Bybit v5 linear tickers (`tickers.<symbol>`, bybit-exchange.github.io/docs/v5/websocket/public/ticker):
 * a `snapshot` first, then `delta`s carrying only the fields that changed. The connector reads
 * the same fields from `/v5/market/tickers`: `fundingRate` (per the market's interval, decimal),
 * `nextFundingTime`, `markPrice`, `indexPrice`; Bybit publishes no predicted rate.
 */
export const bybitStream: VenueStreamProtocol = {
  venue: "bybit",
  sockets: (venueMarketIds) =>
    socketsOf(URL, venueMarketIds, MARKETS_PER_SOCKET, (ids) =>
      // The whole frame is kept under the args budget, which bounds the args with room to spare.
      subscribeFrames(ids.map((id) => `tickers.${id}`), { maxItems: Number.MAX_SAFE_INTEGER, maxBytes: MAX_ARGS_CHARS }, (args) =>
        JSON.stringify({ op: "subscribe", args }),
      ),
    ),
  // "If there is no ping-pong and no stream data … cut off after 10 minutes"; Bybit recommends a
  // ping every 20 s.
  keepalive: { frame: JSON.stringify({ op: "ping" }), everyMs: 20_000 },
  // Tickers push every 100 ms while anything moves; a socket of many markets silent for 10 s is stalled.
  stallAfterMs: 10_000,
  decode: (frame) => decodeMessage(frame, readBybitMessage),
};

function readBybitMessage(message: JsonRecord, text: string): StreamEvent[] {
  // Answers to our requests: `{"success":true,"ret_msg":"pong","op":"ping",…}`, `{"success":true,"op":"subscribe",…}`.
  if (typeof message.op === "string") {
    if (message.success === false) return [errorEvent(`${message.op} refused: ${String(message.ret_msg ?? "")}`)];
    return [message.op === "subscribe" ? { kind: "ack" } : { kind: "heartbeat" }];
  }
  const topic = typeof message.topic === "string" ? message.topic : "";
  const data = asRecord(message.data);
  if (!topic.startsWith("tickers.") || !data) return unexpectedFrame(text);
  const id = typeof data.symbol === "string" && data.symbol !== "" ? data.symbol : topic.slice("tickers.".length);
  const out = new FrameUpdates();
  // Snapshot and delta read alike: a delta's missing key is an unchanged field, and `""` (dated
  // futures' `fundingRate` and `nextFundingTime`) is Bybit saying there is none.
  const fields: StreamFields = {};
  out.set(fields, "fundingRate", data.fundingRate, id);
  out.set(fields, "nextFundingAt", data.nextFundingTime, id);
  out.set(fields, "markPrice", data.markPrice, id);
  out.set(fields, "indexPrice", data.indexPrice, id);
  out.push(id, fields, epochMs(message.ts) ?? null);
  return out.events();
}
