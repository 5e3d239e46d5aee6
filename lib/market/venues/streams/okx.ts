import { asRecord, decodeMessage, epochMs, errorEvent, FrameUpdates, isBareText, type JsonRecord, socketsOf, subscribeFrames, unexpectedFrame } from "./stream-frames";
import type { StreamEvent, StreamFields, VenueStreamProtocol } from "./stream-protocol";

const URL = "wss://ws.okx.com:8443/ws/v5/public";

/** OKX: "The total length of multiple channels cannot exceed 64 KB" in one request. */
const MAX_FRAME_BYTES = 64 * 1024;

/**
 * OKX states no cap on channels per connection, but 480 subscribe requests per connection an hour
 * and 3 connection requests a second per IP. Two channels a market: 300 markets (600 channels) a
 * socket keeps a reconnect to a handful of frames (a choice, not a venue limit).
 */
const MARKETS_PER_SOCKET = 300;

/**
 * OKX needs two public channels per instrument (www.okx.com/docs-v5, "Funding rate channel",
 * "Mark price channel"): `funding-rate` (pushed every 30 to 90 s) carries `fundingRate`,
 * `nextFundingRate` and `fundingTime`, the upcoming settlement, as the connector reads them from
 * `/public/funding-rate`; `mark-price` (every 200 ms on a change, else every 10 s) carries `markPx`.
 * OKX publishes no index for a swap in either, so the index stays absent as in the connector.
 */
export const okxStream: VenueStreamProtocol = {
  venue: "okx",
  sockets: (venueMarketIds) =>
    socketsOf(URL, venueMarketIds, MARKETS_PER_SOCKET, (ids) =>
      subscribeFrames(
        ids.flatMap((instId) => [
          { channel: "funding-rate", instId },
          { channel: "mark-price", instId },
        ]),
        { maxItems: Number.MAX_SAFE_INTEGER, maxBytes: MAX_FRAME_BYTES },
        (args) => JSON.stringify({ op: "subscribe", args }),
      ),
    ),
  // OKX closes a connection after 30 s without data and has no protocol ping: the text `ping`,
  // answered by `pong`.
  keepalive: { frame: "ping", everyMs: 20_000 },
  // Each market's mark price comes at least every 10 s.
  stallAfterMs: 30_000,
  decode: (frame) => (isBareText(frame, "pong") ? [{ kind: "heartbeat" }] : decodeMessage(frame, readOkxMessage)),
};

/**
 * The answer to a request, in the form OKX uses and Bitget copies (`{"event":"subscribe","arg":{…}}`,
 * `{"event":"error","code":"60012","msg":…}`, another `event` such as `unsubscribe`); undefined for
 * a channel push, which has no `event`.
 */
export function okxStyleAnswer(message: JsonRecord): StreamEvent[] | undefined {
  if (message.event === "error") return [errorEvent(`venue error ${String(message.code)}: ${String(message.msg)}`)];
  if (message.event === "subscribe") return [{ kind: "ack" }];
  if (typeof message.event === "string") return [{ kind: "heartbeat" }];
  return undefined;
}

function readOkxMessage(message: JsonRecord, text: string): StreamEvent[] {
  const answer = okxStyleAnswer(message);
  if (answer) return answer;
  const channel = asRecord(message.arg)?.channel;
  if ((channel !== "funding-rate" && channel !== "mark-price") || !Array.isArray(message.data)) {
    return unexpectedFrame(text);
  }
  const out = new FrameUpdates();
  for (const item of message.data) {
    const row = asRecord(item);
    const id = row?.instId;
    if (!row || typeof id !== "string" || id === "") {
      out.problem(`row without instId: ${JSON.stringify(item).slice(0, 80)}`);
      continue;
    }
    // No filter on `instType`: X-Perps (`BTC-USD_UM_XPERP-…`) are `FUTURES` that fund like swaps.
    out.push(id, channel === "funding-rate" ? fundingFields(row, id, out) : markFields(row, id, out), epochMs(row.ts) ?? null);
  }
  return out.events();
}

function fundingFields(row: JsonRecord, id: string, out: FrameUpdates): StreamFields {
  const fields: StreamFields = {};
  // Some messages have no `fundingRate` key at all: absent, not "none".
  out.set(fields, "fundingRate", row.fundingRate, id);
  // `""` under `method: current_period`: OKX forecasts no next rate.
  out.set(fields, "predictedFundingRate", row.nextFundingRate, id);
  // In the channel `fundingTime` is the upcoming settlement, the one the current rate is paid at.
  out.set(fields, "nextFundingAt", row.fundingTime, id);
  return fields;
}

function markFields(row: JsonRecord, id: string, out: FrameUpdates): StreamFields {
  const fields: StreamFields = {};
  out.set(fields, "markPrice", row.markPx, id);
  return fields;
}
