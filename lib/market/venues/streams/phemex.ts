import { asArray, asRecord, asString, decodeMessage, errorEvent, type JsonRecord, nanosecondsMs, presentFields, unexpectedFrame, updateOf, updatesEvent, venueNumber } from "./stream-frames";
import type { StreamEvent, StreamUpdate, VenueStreamProtocol } from "./stream-protocol";

export const PHEMEX_STREAM_URL = "wss://ws.phemex.com";

/**
 * The column order Phemex documents for `perp_market24h_pack_p.update`, used when a frame comes
 * without its own `fields` list (the snapshot states it; clients that cache it from the snapshot
 * show incremental frames may leave it out).
 */
export const PHEMEX_PACK_FIELDS = [
  "symbol", "openRp", "highRp", "lowRp", "lastRp", "volumeRq", "turnoverRv", "openInterestRv", "indexRp", "markRp", "fundingRateRr", "predFundingRateRr",
] as const;

/**
 * Phemex over `perp_market24h_pack_p`: one subscription, every USDT perpetual's 24 h ticker in a
 * columnar frame (`fields` names the columns, `data` holds one row per symbol) pushed every second
 * (3 s apart when probed). The columns read are the REST ticker's under their `…Rp/…Rr` names:
 * `fundingRateRr` (the current interval's rate, a decimal string), `predFundingRateRr`, `markRp`
 * and `indexRp`. The frame's `timestamp` is epoch nanoseconds. Phemex states no settlement time:
 * the connector derives it from the interval's UTC grid, which the round keeps doing.
 */
export const phemexStream: VenueStreamProtocol = {
  venue: "phemex",
  sockets: (venueMarketIds) =>
    venueMarketIds.length === 0
      ? []
      : [{ url: PHEMEX_STREAM_URL, subscribe: [JSON.stringify({ id: 1, method: "perp_market24h_pack_p.subscribe", params: [] })] }],
  // "send heartbeat (ping) … with interval less than 30 seconds … recommended to be set as 5 seconds".
  keepalive: { frame: JSON.stringify({ id: 0, method: "server.ping", params: [] }), everyMs: 5_000 },
  stallAfterMs: 15_000,
  decode: (frame) => decodeMessage(frame, readPhemexMessage),
};

function readPhemexMessage(message: JsonRecord, text: string): StreamEvent[] {
  if (message.method === "perp_market24h_pack_p.update") {
    const stated = asArray(message.fields);
    const columns: readonly unknown[] = stated.length > 0 ? stated : PHEMEX_PACK_FIELDS;
    const at = (name: string) => columns.indexOf(name);
    const [symbolAt, rateAt, predictedAt, markAt, indexAt] = [at("symbol"), at("fundingRateRr"), at("predFundingRateRr"), at("markRp"), at("indexRp")];
    const cell = (row: unknown[], index: number) => (index < 0 ? undefined : venueNumber(row[index]));
    const venueTime = nanosecondsMs(message.timestamp);
    const updates: StreamUpdate[] = asArray(message.data).flatMap((item) => {
      const row = asArray(item);
      const fields = presentFields({
        fundingRate: cell(row, rateAt),
        predictedFundingRate: cell(row, predictedAt),
        markPrice: cell(row, markAt),
        indexPrice: cell(row, indexAt),
      });
      return updateOf(symbolAt < 0 ? undefined : asString(row[symbolAt]), fields, venueTime);
    });
    return updatesEvent(updates);
  }
  const error = asRecord(message.error);
  if (error) return [errorEvent(`phemex ${String(error.code)}: ${String(error.message)}`)];
  if (message.result === "pong") return [{ kind: "heartbeat" }];
  if (asRecord(message.result)?.status === "success") return [{ kind: "ack" }];
  return unexpectedFrame(text);
}
