import { asRecord, decodeMessage, epochMs, errorEvent, FrameUpdates, type JsonRecord, socketsOf, subscribeFrames, unexpectedFrame } from "./stream-frames";
import type { StreamEvent, StreamFields, VenueStreamProtocol } from "./stream-protocol";

/** The USDT-settled futures socket: the linear book the connector lists (`settle: usdt`). */
const URL = "wss://fx-ws.gateio.ws/v4/ws/usdt";

/**
 * Gate documents no cap on contracts per `futures.tickers` payload or per connection. 100
 * contracts a frame keeps a frame near 2 KB, and 300 a socket spreads the pushes (choices, not
 * venue limits).
 */
const CONTRACTS_PER_FRAME = 100;
const MARKETS_PER_SOCKET = 300;

/**
 * Gate `futures.tickers` (www.gate.com/docs/developers/futures/ws/en, "Tickers channel"): per
 * contract, `funding_rate` (decimal per the contract's interval), `funding_rate_indicative` (the
 * next period's forecast, the connector's predicted rate), `mark_price`, `index_price`. The
 * channel carries no next settlement time (the connector's comes from the contract list's
 * `funding_next_apply`), so `nextFundingAt` stays absent.
 */
export const gateStream: VenueStreamProtocol = {
  venue: "gate",
  // The request's `time` is left out: it is optional in practice (crypto-ws-client subscribes
  // without it), and these frames are resent unchanged after every reconnect.
  sockets: (venueMarketIds) =>
    socketsOf(URL, venueMarketIds, MARKETS_PER_SOCKET, (ids) =>
      subscribeFrames(ids, { maxItems: CONTRACTS_PER_FRAME }, (payload) =>
        JSON.stringify({ channel: "futures.tickers", event: "subscribe", payload }),
      ),
    ),
  // Gate's own demo client pings every 10 s; the answer is `futures.pong`.
  keepalive: { frame: JSON.stringify({ channel: "futures.ping" }), everyMs: 10_000 },
  stallAfterMs: 30_000,
  decode: (frame) => decodeMessage(frame, readGateMessage),
};

function readGateMessage(message: JsonRecord, text: string): StreamEvent[] {
  // `error` is null, absent, or `{code, message}`.
  if (message.error !== undefined && message.error !== null) return [errorEvent(`venue error: ${JSON.stringify(message.error)}`)];
  if (message.channel === "futures.pong") return [{ kind: "heartbeat" }];
  if (message.channel !== "futures.tickers") return unexpectedFrame(text);
  if (message.event === "subscribe" || message.event === "unsubscribe") return [{ kind: "ack" }];
  if (message.event !== "update") return [errorEvent(`unexpected event: ${String(message.event)}`)];
  // `time` is seconds; later messages add `time_ms`.
  const seconds = epochMs(message.time);
  const venueTime = epochMs(message.time_ms) ?? (seconds === undefined ? null : seconds * 1000);
  const out = new FrameUpdates();
  for (const item of resultRows(message.result)) {
    const row = asRecord(item);
    const id = row?.contract;
    if (!row || typeof id !== "string" || id === "") {
      out.problem(`row without contract: ${JSON.stringify(item).slice(0, 80)}`);
      continue;
    }
    out.push(id, tickerFields(row, id, out), venueTime);
  }
  return out.events();
}

/** `result` comes as a list of rows, a list holding a list of rows, or one bare row. */
function resultRows(result: unknown): unknown[] {
  if (!Array.isArray(result)) return [result];
  return result.flatMap((item) => (Array.isArray(item) ? item : [item]));
}

function tickerFields(row: JsonRecord, id: string, out: FrameUpdates): StreamFields {
  const fields: StreamFields = {};
  out.set(fields, "fundingRate", row.funding_rate, id);
  out.set(fields, "predictedFundingRate", row.funding_rate_indicative, id);
  out.set(fields, "markPrice", row.mark_price, id);
  out.set(fields, "indexPrice", row.index_price, id);
  return fields;
}
