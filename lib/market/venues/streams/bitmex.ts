import { asArray, asRecord, asString, decodeMessage, errorEvent, isBareText, isoMs, type JsonRecord, presentFields, unexpectedFrame, updateOf, updatesEvent, venueNumber } from "./stream-frames";
import type { StreamEvent, StreamUpdate, VenueStreamProtocol } from "./stream-protocol";

export const BITMEX_STREAM_URL = "wss://ws.bitmex.com/realtime";

/** Row actions of a BitMEX table that carry instrument state (`delete` removes a row, nothing to read). */
const STATE_ACTIONS = new Set(["partial", "update", "insert"]);

/**
 * BitMEX over its `instrument` table: one subscription, every instrument. The first message is a
 * `partial` with each instrument's full row; `update`s then carry only the fields that changed
 * (a row with `lastPrice` alone says nothing of funding), so only the fields present are emitted.
 * The fields are those of REST's `instrument/active`, read as the connector reads them:
 * `fundingRate` (the rate fixed for the coming settlement, per the interval), `indicativeFundingRate`
 * (the forecast of the one after), `fundingTimestamp` (that settlement, ISO), `markPrice`,
 * `indicativeSettlePrice` (the index the mark is built on) and `timestamp` (ISO).
 * Index symbols (`.BXBT`, `.EVOL7D`) share the table and are skipped. Other tables (the `funding`
 * table's settlement rows) are not subscribed; one that arrives changes no market.
 * BitMEX answers a text `ping` with a text `pong`.
 */
export const bitmexStream: VenueStreamProtocol = {
  venue: "bitmex",
  sockets: (venueMarketIds) =>
    venueMarketIds.length === 0 ? [] : [{ url: BITMEX_STREAM_URL, subscribe: [JSON.stringify({ op: "subscribe", args: ["instrument"] })] }],
  keepalive: { frame: "ping", everyMs: 10_000 },
  stallAfterMs: 30_000,
  decode: (frame) => (isBareText(frame, "pong") ? [{ kind: "heartbeat" }] : decodeMessage(frame, readBitmexMessage)),
};

function readBitmexMessage(message: JsonRecord, text: string): StreamEvent[] {
  if (typeof message.table === "string") {
    if (message.table !== "instrument" || !STATE_ACTIONS.has(String(message.action))) return [{ kind: "heartbeat" }];
    const updates: StreamUpdate[] = asArray(message.data).flatMap((item) => {
      const row = asRecord(item);
      const symbol = asString(row?.symbol);
      if (!row || symbol === undefined || symbol.startsWith(".")) return [];
      const fields = presentFields({
        fundingRate: venueNumber(row.fundingRate),
        predictedFundingRate: venueNumber(row.indicativeFundingRate),
        nextFundingAt: "fundingTimestamp" in row ? (row.fundingTimestamp === null ? null : isoMs(row.fundingTimestamp)) : undefined,
        markPrice: venueNumber(row.markPrice),
        indexPrice: venueNumber(row.indicativeSettlePrice),
      });
      return updateOf(symbol, fields, isoMs(row.timestamp));
    });
    return updatesEvent(updates);
  }
  if (message.success === true && "subscribe" in message) return [{ kind: "ack" }];
  if (typeof message.error === "string") return [errorEvent(`bitmex ${String(message.status ?? "")}: ${message.error}`)];
  // The greeting on connect: `{"info":"Welcome to the BitMEX Realtime API.", …}`.
  if (typeof message.info === "string") return [{ kind: "heartbeat" }];
  return unexpectedFrame(text);
}
