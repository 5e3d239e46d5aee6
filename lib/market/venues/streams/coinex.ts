import { asArray, asRecord, asString, decodeMessage, errorEvent, type JsonRecord, presentFields, timeField, unexpectedFrame, updateOf, updatesEvent, venueNumber } from "./stream-frames";
import type { StreamEvent, StreamUpdate, VenueStreamProtocol } from "./stream-protocol";

export const COINEX_STREAM_URL = "wss://socket.coinex.com/v2/futures";

/**
 * CoinEx over `state.subscribe` with an empty `market_list`, which is every futures market on one
 * subscription. Frames are gzip binary. A `state.update` row carries what the REST funding-rate list
 * carries, under the same names, read as the connector reads them: `latest_funding_rate` (the current
 * period's rate, recomputed each minute), `next_funding_rate` (the forecast), `latest_funding_time`
 * (the settlement the current rate is collected at, the connector's next settlement), `mark_price`
 * and `index_price`. Prices are strings, times integer ms; the row has no time of its own.
 */
export const coinexStream: VenueStreamProtocol = {
  venue: "coinex",
  sockets: (venueMarketIds) =>
    venueMarketIds.length === 0
      ? []
      : [{ url: COINEX_STREAM_URL, subscribe: [JSON.stringify({ method: "state.subscribe", params: { market_list: [] }, id: 1 })] }],
  // A socket that sends nothing is closed at 60 s; `server.ping` is answered with a pong.
  keepalive: { frame: JSON.stringify({ method: "server.ping", params: {}, id: 2 }), everyMs: 20_000 },
  stallAfterMs: 10_000,
  decode: (frame) => decodeMessage(frame, readCoinexMessage),
};

function readCoinexMessage(message: JsonRecord, text: string): StreamEvent[] {
  if (message.method === "state.update") {
    const rows = asArray(asRecord(message.data)?.state_list);
    const updates: StreamUpdate[] = rows.flatMap((item) => {
      const row = asRecord(item);
      if (!row) return [];
      const fields = presentFields({
        fundingRate: venueNumber(row.latest_funding_rate),
        predictedFundingRate: venueNumber(row.next_funding_rate),
        nextFundingAt: timeField(row.latest_funding_time),
        markPrice: venueNumber(row.mark_price),
        indexPrice: venueNumber(row.index_price),
      });
      return updateOf(asString(row.market), fields, undefined);
    });
    return updatesEvent(updates);
  }
  // Replies to our requests: `{id, code, message}`, with `data.result: "pong"` for server.ping.
  if (typeof message.code === "number") {
    if (message.code !== 0) return [errorEvent(`coinex ${message.code}: ${String(message.message)}`)];
    return [asRecord(message.data)?.result === "pong" ? { kind: "heartbeat" } : { kind: "ack" }];
  }
  return unexpectedFrame(text);
}
