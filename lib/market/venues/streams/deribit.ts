import { asRecord, asString, chunk, decodeMessage, distinct, epochMs, errorEvent, type JsonRecord, presentFields, unexpectedFrame, updateOf, updatesEvent, venueNumber } from "./stream-frames";
import type { StreamEvent, VenueStreamProtocol } from "./stream-protocol";

export const DERIBIT_STREAM_URL = "wss://www.deribit.com/ws/api/v2";

/** Channels per `public/subscribe`: Deribit states no cap; 100 keeps a frame a few KB. */
export const DERIBIT_CHANNELS_PER_FRAME = 100;

/** Seconds between Deribit's heartbeats once `public/set_heartbeat` asks for them (its minimum is 10). */
const HEARTBEAT_SECONDS = 30;

/**
 * Deribit over JSON-RPC `public/subscribe` to `ticker.<instrument>.100ms` (the fastest public
 * interval; `raw` needs authorization, `agg2` is every 2 s). The ticker carries the connector's
 * fields under the same names: `current_funding` (the rate accruing now, per 8 hours as Deribit
 * writes every rate: the connector's rate over its 8-hour continuous interval; 0 inside the damper is
 * a real 0, not a missing value), `mark_price`, `index_price` and `timestamp` (ms). `funding_8h`, the
 * trailing 8 hours actually paid, is the connector's last settlement, which no stream field holds.
 * Deribit has no next settlement: funding accrues continuously.
 * Keepalive is Deribit's own: after `public/set_heartbeat` it sends `test_request`s that must be
 * answered with `public/test` or the connection is closed.
 */
export const deribitStream: VenueStreamProtocol = {
  venue: "deribit",
  sockets: (venueMarketIds) =>
    venueMarketIds.length === 0
      ? []
      : [
          {
            url: DERIBIT_STREAM_URL,
            subscribe: [
              JSON.stringify({ jsonrpc: "2.0", id: 0, method: "public/set_heartbeat", params: { interval: HEARTBEAT_SECONDS } }),
              ...chunk(distinct(venueMarketIds), DERIBIT_CHANNELS_PER_FRAME).map((ids, i) =>
                JSON.stringify({ jsonrpc: "2.0", id: i + 1, method: "public/subscribe", params: { channels: ids.map((id) => `ticker.${id}.100ms`) } }),
              ),
            ],
          },
        ],
  stallAfterMs: 10_000,
  decode: (frame) => decodeMessage(frame, readDeribitMessage),
};

function readDeribitMessage(message: JsonRecord, text: string): StreamEvent[] {
  if (message.method === "subscription") {
    const params = asRecord(message.params);
    const channel = asString(params?.channel);
    const data = asRecord(params?.data);
    if (!channel?.startsWith("ticker.") || !data) return unexpectedFrame(text);
    const fields = presentFields({
      fundingRate: venueNumber(data.current_funding),
      markPrice: venueNumber(data.mark_price),
      indexPrice: venueNumber(data.index_price),
    });
    return updatesEvent(updateOf(asString(data.instrument_name), fields, epochMs(data.timestamp)));
  }
  if (message.method === "heartbeat") {
    return asRecord(message.params)?.type === "test_request"
      ? [{ kind: "reply", frame: JSON.stringify({ jsonrpc: "2.0", id: "test", method: "public/test", params: {} }) }]
      : [{ kind: "heartbeat" }];
  }
  const error = asRecord(message.error);
  if (error) return [errorEvent(`deribit ${String(error.code)}: ${String(error.message)}`)];
  // Answers to our requests: the subscribed channels, `"ok"` for set_heartbeat, `{version}` for public/test.
  if ("result" in message) return [Array.isArray(message.result) ? { kind: "ack" } : { kind: "heartbeat" }];
  return unexpectedFrame(text);
}
