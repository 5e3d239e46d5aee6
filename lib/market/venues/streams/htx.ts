import { asArray, asRecord, asString, decodeMessage, epochMs, errorEvent, type JsonRecord, presentFields, unexpectedFrame, updateOf, updatesEvent, venueNumber } from "./stream-frames";
import type { StreamEvent, StreamUpdate, VenueStreamProtocol } from "./stream-protocol";

/** HTX's USDT-margined notification socket, which also serves the public funding-rate topic. */
export const HTX_STREAM_URL = "wss://api.hbdm.vn/linear-swap-notification";

/** Every USDT-margined contract's funding rate on one topic. */
export const HTX_FUNDING_TOPIC = "public.*.funding_rate";

/**
 * HTX over `public.*.funding_rate`: one subscription for every contract, a push per contract as the
 * rate is recalculated (each minute). Frames are gzip binary. A row states:
 * - `funding_rate`, the current period's running rate, and `estimated_rate`, the forecast (the
 *   connector's rate and predicted rate), decimal strings with 18 decimals;
 * - `settlement_time`, the next settlement (ms string). `funding_time` is NOT the settlement here but
 *   the minute the rate was calculated (09:33 against a 16:00 settlement), so it is not read.
 * No mark or index: the topic has none, as the round has none for HTX.
 * HTX pings in the protocol (`{"op":"ping","ts":…}`, answered `{"op":"pong","ts":…}` with the same ts).
 */
export const htxStream: VenueStreamProtocol = {
  venue: "htx",
  sockets: (venueMarketIds) =>
    venueMarketIds.length === 0 ? [] : [{ url: HTX_STREAM_URL, subscribe: [JSON.stringify({ op: "sub", cid: "funding", topic: HTX_FUNDING_TOPIC })] }],
  stallAfterMs: 180_000,
  decode: (frame) => decodeMessage(frame, readHtxMessage),
};

function readHtxMessage(message: JsonRecord, text: string): StreamEvent[] {
  switch (message.op) {
    case "notify":
      return decodeFunding(message, text);
    case "ping":
      return [{ kind: "reply", frame: JSON.stringify({ op: "pong", ts: message.ts }) }];
    case "sub":
      return message["err-code"] === 0 ? [{ kind: "ack" }] : [errorEvent(`htx sub ${String(message.topic)}: ${String(message["err-code"])} ${String(message["err-msg"] ?? "")}`)];
    case "error":
    case "close":
      return [errorEvent(`htx ${String(message.op)}: ${String(message["err-code"] ?? "")} ${String(message["err-msg"] ?? "")}`)];
    default:
      return unexpectedFrame(text);
  }
}

function decodeFunding(message: JsonRecord, text: string): StreamEvent[] {
  const topic = asString(message.topic);
  if (!topic?.startsWith("public.") || !topic.endsWith(".funding_rate")) return unexpectedFrame(text);
  const venueTime = epochMs(message.ts);
  const updates: StreamUpdate[] = asArray(message.data).flatMap((item) => {
    const row = asRecord(item);
    if (!row) return [];
    const fields = presentFields({
      fundingRate: venueNumber(row.funding_rate),
      predictedFundingRate: venueNumber(row.estimated_rate),
      nextFundingAt: venueNumber(row.settlement_time),
    });
    return updateOf(asString(row.contract_code), fields, venueTime);
  });
  return updatesEvent(updates);
}
