import { asRecord, asString, chunk, decodeMessage, distinct, errorEvent, type JsonRecord, nanosecondsMs, presentFields, unexpectedFrame, updateOf, updatesEvent, venueNumber } from "./stream-frames";
import type { StreamEvent, VenueStreamProtocol } from "./stream-protocol";

export const GRVT_STREAM_URL = "wss://market-data.grvt.io/ws/full";

/** Selectors per subscribe: GRVT states no cap; 50 keeps a frame small. */
export const GRVT_SELECTORS_PER_FRAME = 50;

/** `@500`: a full ticker snapshot at most every 500 ms (snapshot rates are 500, 1000 or 5000). */
const SNAPSHOT_RATE_MS = 500;

/** GRVT writes rates in percentage points ("0.0037" is 0.0037 %), as the connector reads them. */
function percent(value: number | null | undefined): number | null | undefined {
  // 15 significant digits drop the division's float noise, as in the connector.
  return value === undefined || value === null ? value : Number((value / 100).toPrecision(15));
}

/** Nanoseconds as ms, keeping GRVT's "" (set to null) as null and an absent key absent. */
function nanosecondsField(value: unknown): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === "") return null;
  return nanosecondsMs(value);
}

/**
 * GRVT over JSON-RPC `subscribe` to `v1.ticker.s` (full snapshots, one per instrument selector
 * `<instrument>@500`). The feed has the fields of REST's `full/v1/ticker`, read as the connector
 * reads them: `funding_rate` in percentage points (divided by 100), `next_funding_time` as a string of
 * nanoseconds, `mark_price`, `index_price` (strings) and `event_time` (nanoseconds). A field set to
 * null is written `""`. GRVT publishes no forecast, so none is emitted.
 */
export const grvtStream: VenueStreamProtocol = {
  venue: "grvt",
  sockets: (venueMarketIds) =>
    venueMarketIds.length === 0
      ? []
      : [
          {
            url: GRVT_STREAM_URL,
            subscribe: chunk(distinct(venueMarketIds), GRVT_SELECTORS_PER_FRAME).map((ids, i) =>
              JSON.stringify({ jsonrpc: "2.0", method: "subscribe", params: { stream: "v1.ticker.s", selectors: ids.map((id) => `${id}@${SNAPSHOT_RATE_MS}`) }, id: i + 1 }),
            ),
          },
        ],
  keepalive: { frame: "protocol-ping", everyMs: 30_000 },
  stallAfterMs: 5_000,
  decode: (frame) => decodeMessage(frame, readGrvtMessage),
};

function readGrvtMessage(message: JsonRecord, text: string): StreamEvent[] {
  const feed = asRecord(message.feed);
  if (feed && typeof message.stream === "string") {
    if (!message.stream.startsWith("v1.ticker.")) return unexpectedFrame(text);
    const fields = presentFields({
      fundingRate: percent(venueNumber(feed.funding_rate)),
      nextFundingAt: nanosecondsField(feed.next_funding_time),
      markPrice: venueNumber(feed.mark_price),
      indexPrice: venueNumber(feed.index_price),
    });
    return updatesEvent(updateOf(asString(feed.instrument) ?? asString(message.selector), fields, nanosecondsMs(feed.event_time)));
  }
  const error = asRecord(message.error);
  if (error) return [errorEvent(`grvt ${String(error.code)}: ${String(error.message)}`)];
  if (asRecord(message.result)?.subs !== undefined) return [{ kind: "ack" }];
  return unexpectedFrame(text);
}
