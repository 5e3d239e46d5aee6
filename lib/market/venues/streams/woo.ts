import { asRecord, asString, chunk, decodeMessage, epochMs, errorEvent, type JsonRecord, presentFields, socketsOf, timeField, unexpectedFrame, updateOf, updatesEvent, venueNumber } from "./stream-frames";
import type { StreamEvent, StreamFields, VenueStreamProtocol } from "./stream-protocol";

export const WOO_STREAM_URL = "wss://wss.woox.io/v3/public";

/** Topics per SUBSCRIBE: WOO X documents 20, but 11 or more were refused whole when probed. */
export const WOO_TOPICS_PER_FRAME = 10;

/** Live topics per connection (documented; the 101st was silently dropped when probed). */
export const WOO_TOPICS_PER_SOCKET = 100;

/** Each perpetual takes two topics: its mark and its funding estimate. */
const TOPICS_PER_MARKET = 2;

/**
 * WOO X over its v3 public socket, two topics per perpetual:
 * - `estfundingrate@<symbol>`, once a minute: `r` (the running estimate of the rate settling next,
 *   a string) and `ft` (that settlement, ms). WOO X quotes this estimate and no other rate, so it is
 *   both the rate and the forecast, as the connector reads `estFundingRate`;
 * - `markprice@<symbol>`, once a second: `px` (a string).
 * The legacy v1 topic form (`<symbol>@estfundingrate` with a numeric `fundingRate`/`fundingTs`,
 * `<symbol>@markprice` with `price`) is read too, so a recording of either decodes.
 * `indexprice` is keyed by the spot symbol (`SPOT_BTC_USDT`), not the perpetual, so the index stays
 * with the round. A connection lives at most 24 hours.
 */
export const wooStream: VenueStreamProtocol = {
  venue: "woo",
  sockets: (venueMarketIds) =>
    socketsOf(WOO_STREAM_URL, venueMarketIds, WOO_TOPICS_PER_SOCKET / TOPICS_PER_MARKET, (symbols) =>
      chunk(
        symbols.flatMap((symbol) => [`markprice@${symbol}`, `estfundingrate@${symbol}`]),
        WOO_TOPICS_PER_FRAME,
      ).map((params, i) => JSON.stringify({ id: String(i + 1), cmd: "SUBSCRIBE", params })),
    ),
  // A socket that sends nothing is closed after 60 s; a protocol ping every 10-15 s kept it (probed).
  keepalive: { frame: "protocol-ping", everyMs: 15_000 },
  stallAfterMs: 10_000,
  maxLifetimeMs: 24 * 60 * 60_000,
  decode: (frame) => decodeMessage(frame, readWooMessage),
};

function readWooMessage(message: JsonRecord, text: string): StreamEvent[] {
  const topic = asString(message.topic);
  const data = asRecord(message.data);
  if (topic !== undefined && data) {
    const kind = topicKind(topic);
    if (kind === undefined) return unexpectedFrame(text);
    const symbol = asString(data.s) ?? asString(data.symbol);
    const venueTime = epochMs(data.ts) ?? epochMs(message.ts);
    let fields: StreamFields;
    if (kind === "markprice") {
      fields = presentFields({ markPrice: venueNumber(data.px ?? data.price) });
    } else {
      const rate = venueNumber(data.r ?? data.fundingRate);
      fields = presentFields({ fundingRate: rate, predictedFundingRate: rate, nextFundingAt: timeField(data.ft ?? data.fundingTs) });
    }
    return updatesEvent(updateOf(symbol, fields, venueTime));
  }
  switch (message.cmd) {
    case "PONG":
      return [{ kind: "heartbeat" }];
    case "SUBSCRIBE":
      // A refused request says `success: false` with a string; an unknown topic is "accepted" with `data: []`.
      return message.success === true ? [{ kind: "ack" }] : [errorEvent(`woo subscribe: ${JSON.stringify(message.data)}`)];
    case "ERROR":
      return [errorEvent(`woo: ${JSON.stringify(message.data)}`)];
    default:
      return unexpectedFrame(text);
  }
}

/** `markprice@PERP_X` (v3) or `PERP_X@markprice` (legacy), and the same for `estfundingrate`. */
function topicKind(topic: string): "markprice" | "estfundingrate" | undefined {
  for (const kind of ["markprice", "estfundingrate"] as const) {
    if (topic.startsWith(`${kind}@`) || topic.endsWith(`@${kind}`)) return kind;
  }
  return undefined;
}
