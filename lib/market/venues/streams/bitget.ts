import { okxStyleAnswer } from "./okx";
import { asRecord, decodeMessage, epochMs, FrameUpdates, isBareText, type JsonRecord, socketsOf, subscribeFrames, unexpectedFrame } from "./stream-frames";
import type { StreamEvent, StreamFields, VenueStreamProtocol } from "./stream-protocol";

const URL = "wss://ws.bitget.com/v2/ws/public";

/**
 * Bitget's classic WebSocket limits: "the total length of multiple channels cannot exceed 4096
 * bytes at a time", at most 1000 channels a connection with fewer than 50 recommended, 240
 * subscription requests an hour and 10 messages a second per connection, 100 connections per IP,
 * a forced cut every 24 h.
 */
const MAX_FRAME_BYTES = 4096;
const MARKETS_PER_SOCKET = 49;

/**
 * The two product lines the connector lists. USDC-margined perpetuals are named `<BASE>PERP`
 * (`BTCPERP`); every other linear id is a USDT-FUTURES one. A market under the wrong `instType` is
 * acknowledged and then silent, so the line must be right.
 */
export function bitgetInstType(venueMarketId: string): "USDT-FUTURES" | "USDC-FUTURES" {
  return venueMarketId.endsWith("PERP") ? "USDC-FUTURES" : "USDT-FUTURES";
}

/**
 * Bitget v2 `ticker` (classic "Tickers Channel"): per instrument, a snapshot every 100 to 400 ms
 * with `fundingRate` (decimal per the market's interval), `nextFundingTime`, `markPrice` and
 * `indexPrice`, the fields the connector reads from `current-fund-rate` and the tickers. The v3
 * (UTA) socket sends the same four under `arg.topic`/`arg.symbol`; both are read.
 */
export const bitgetStream: VenueStreamProtocol = {
  venue: "bitget",
  sockets: (venueMarketIds) =>
    socketsOf(URL, venueMarketIds, MARKETS_PER_SOCKET, (ids) =>
      subscribeFrames(
        ids.map((instId) => ({ instType: bitgetInstType(instId), channel: "ticker", instId })),
        { maxItems: MARKETS_PER_SOCKET, maxBytes: MAX_FRAME_BYTES },
        (args) => JSON.stringify({ op: "subscribe", args }),
      ),
    ),
  // The server drops a connection that sends no `ping` for 2 min, even while data flows.
  keepalive: { frame: "ping", everyMs: 30_000 },
  stallAfterMs: 10_000,
  maxLifetimeMs: 24 * 3_600_000,
  decode: (frame) => (isBareText(frame, "pong") ? [{ kind: "heartbeat" }] : decodeMessage(frame, readBitgetMessage)),
};

function readBitgetMessage(message: JsonRecord, text: string): StreamEvent[] {
  // `{"event":"error","code":30001,"msg":…}`: OKX's form.
  const answer = okxStyleAnswer(message);
  if (answer) return answer;
  const arg = asRecord(message.arg);
  const channel = arg?.channel ?? arg?.topic;
  if (channel !== "ticker" || !Array.isArray(message.data)) return unexpectedFrame(text);
  const out = new FrameUpdates();
  for (const item of message.data) {
    const row = asRecord(item);
    const id = row?.instId ?? row?.symbol ?? arg?.instId ?? arg?.symbol;
    if (!row || typeof id !== "string" || id === "") {
      out.problem(`row without instId: ${JSON.stringify(item).slice(0, 80)}`);
      continue;
    }
    out.push(id, tickerFields(row, id, out), epochMs(row.ts) ?? epochMs(row.systemTime) ?? epochMs(message.ts) ?? null);
  }
  return out.events();
}

function tickerFields(row: JsonRecord, id: string, out: FrameUpdates): StreamFields {
  const fields: StreamFields = {};
  out.set(fields, "markPrice", row.markPrice, id);
  out.set(fields, "indexPrice", row.indexPrice, id);
  // The retired v1 mix channel named the rate `capitalRate` and the settlement `nextSettleTime`.
  const rate = row.fundingRate ?? row.capitalRate;
  const next = row.nextFundingTime ?? row.nextSettleTime;
  // Dated futures send `"fundingRate":"0"` with `"nextFundingTime":"0"`: no funding at all.
  if (next === "0" || next === 0) {
    fields.fundingRate = null;
    fields.nextFundingAt = null;
    return fields;
  }
  out.set(fields, "fundingRate", rate, id);
  out.set(fields, "nextFundingAt", next, id);
  return fields;
}
