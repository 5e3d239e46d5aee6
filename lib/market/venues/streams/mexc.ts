import { asRecord, asString, decodeMessage, epochMs, errorEvent, type JsonRecord, presentFields, socketsOf, unexpectedFrame, updateOf, updatesEvent, venueNumber } from "./stream-frames";
import type { StreamEvent, VenueStreamProtocol } from "./stream-protocol";

/** MEXC's contract (futures) socket. */
export const MEXC_STREAM_URL = "wss://contract.mexc.com/edge";

/**
 * Contracts per socket. MEXC documents no subscription cap for the contract socket; its spot socket
 * allows 30 subscriptions per connection, the only figure it states, so a socket takes 30.
 */
export const MEXC_SYMBOLS_PER_SOCKET = 30;

/**
 * MEXC over its contract socket, one `sub.ticker` per contract. `push.ticker` carries the rate
 * (`fundingRate`, a decimal per the contract's interval, as REST's funding_rate), the mark
 * (`fairPrice`) and the index, about once a second. The all-contract `sub.tickers` is not used: its
 * `push.tickers` rows carry no funding rate. The next settlement is only in the per-contract
 * `push.funding.rate`, so it stays with the round (the REST funding list states it for all).
 * Every number is a JSON number; `amount24` has more digits than a double holds, and is not read.
 */
export const mexcStream: VenueStreamProtocol = {
  venue: "mexc",
  sockets: (venueMarketIds) =>
    socketsOf(MEXC_STREAM_URL, venueMarketIds, MEXC_SYMBOLS_PER_SOCKET, (symbols) =>
      symbols.map((symbol) => JSON.stringify({ method: "sub.ticker", param: { symbol } })),
    ),
  // "send ping every 10-20 seconds … the connection closes if no ping is received for 1 minute".
  keepalive: { frame: JSON.stringify({ method: "ping" }), everyMs: 15_000 },
  stallAfterMs: 10_000,
  decode: (frame) => decodeMessage(frame, readMexcMessage),
};

function readMexcMessage(message: JsonRecord, text: string): StreamEvent[] {
  const channel = asString(message.channel);
  if (channel === undefined) return unexpectedFrame(text);
  if (channel === "push.ticker") {
    const data = asRecord(message.data);
    if (!data) return unexpectedFrame(text);
    const fields = presentFields({
      fundingRate: venueNumber(data.fundingRate),
      markPrice: venueNumber(data.fairPrice),
      indexPrice: venueNumber(data.indexPrice),
    });
    return updatesEvent(updateOf(asString(data.symbol) ?? asString(message.symbol), fields, epochMs(data.timestamp) ?? epochMs(message.ts)));
  }
  if (channel === "pong") return [{ kind: "heartbeat" }];
  // `rs.sub.ticker` answers a subscription with `data: "success"`, `rs.error` a refused request.
  if (channel === "rs.error") return [errorEvent(`mexc: ${JSON.stringify(message.data)}`)];
  if (channel.startsWith("rs.sub.")) {
    return message.data === "success" ? [{ kind: "ack" }] : [errorEvent(`mexc ${channel}: ${JSON.stringify(message.data)}`)];
  }
  return unexpectedFrame(text);
}
