import { asRecord, asString, chunk, decodeMessage, epochMs, errorEvent, type JsonRecord, presentFields, socketsOf, timeField, unexpectedFrame, updateOf, updatesEvent, venueNumber } from "./stream-frames";
import type { StreamEvent, VenueStreamProtocol } from "./stream-protocol";

export const BACKPACK_STREAM_URL = "wss://ws.backpack.exchange";

/** Streams per socket: Backpack states no cap; 91 on one socket and one frame were served in full (probed). */
export const BACKPACK_STREAMS_PER_SOCKET = 100;

/** Streams per SUBSCRIBE frame. */
export const BACKPACK_STREAMS_PER_FRAME = 50;

/**
 * Backpack over `markPrice.<symbol>`, once a second per market (sent even when nothing changed),
 * wrapped as `{stream, data}`. `data` carries what REST's markPrices list does, in one-letter keys:
 * `f` (the current interval's funding rate, a decimal string, the connector's rate), `n` (the
 * settlement ending the interval, ms), `p` (mark) and `i` (index). `T` (engine time) and `E` (event
 * time) are MICROseconds. No forecast is published.
 * Backpack pings in the protocol every 60 s and expects a pong within 120 s (the ws library answers).
 */
export const backpackStream: VenueStreamProtocol = {
  venue: "backpack",
  sockets: (venueMarketIds) =>
    socketsOf(BACKPACK_STREAM_URL, venueMarketIds, BACKPACK_STREAMS_PER_SOCKET, (ids) =>
      chunk(ids, BACKPACK_STREAMS_PER_FRAME).map((part) => JSON.stringify({ method: "SUBSCRIBE", params: part.map((id) => `markPrice.${id}`) })),
    ),
  stallAfterMs: 5_000,
  decode: (frame) => decodeMessage(frame, readBackpackMessage),
};

function readBackpackMessage(message: JsonRecord, text: string): StreamEvent[] {
  const data = asRecord(message.data);
  if (data && typeof message.stream === "string") {
    if (data.e !== "markPrice") return unexpectedFrame(text);
    const fields = presentFields({
      fundingRate: venueNumber(data.f),
      nextFundingAt: timeField(data.n),
      markPrice: venueNumber(data.p),
      indexPrice: venueNumber(data.i),
    });
    const micros = epochMs(data.T) ?? epochMs(data.E);
    return updatesEvent(updateOf(asString(data.s), fields, micros === undefined ? undefined : Math.floor(micros / 1000)));
  }
  // A valid SUBSCRIBE gets no answer; refusals are `{"id":null,"error":{code,message}}`.
  const error = asRecord(message.error);
  if (error) return [errorEvent(`backpack ${String(error.code)}: ${String(error.message)}`)];
  return unexpectedFrame(text);
}
