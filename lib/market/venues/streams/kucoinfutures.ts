import { AppError } from "@/lib/errors";
import { asArray, asRecord, asString, chunk, decodeMessage, epochMs, errorEvent, type JsonRecord, presentFields, socketsOf, unexpectedFrame, updateOf, updatesEvent, venueNumber } from "./stream-frames";
import type { StreamEvent, VenueStreamProtocol } from "./stream-protocol";

/** Where KuCoin Futures hands out a public socket's endpoint and token (POST, no body). */
export const KUCOIN_FUTURES_BULLET_URL = "https://api-futures.kucoin.com/api/v1/bullet-public";

/** Symbols one `/contract/instrument:` topic may list (KuCoin's limit; ccxt refuses more than 100 too). */
export const KUCOIN_SYMBOLS_PER_TOPIC = 100;

/** Symbols per socket: each listed symbol counts as a subscription; 300 keeps below KuCoin's per-connection cap. */
export const KUCOIN_SYMBOLS_PER_SOCKET = 300;

/** `funding.rate` at this granularity is the current period's rate recomputed every minute. */
const MINUTE_GRANULARITY = 60_000;

/**
 * KuCoin Futures over `/contract/instrument:<symbols>`, whose messages come in two subjects:
 * - `mark.index.price` (granularity 1000, once a second): `markPrice` and `indexPrice`, numbers;
 * - `funding.rate`, sent for the same timestamp at two granularities: 60000, the running rate of
 *   the current period recomputed each minute (what REST's contract list states as `fundingFeeRate`,
 *   the connector's rate), and the interval's own (28800000 for 8 h), published at the settlement,
 *   which is the settled rate, not the running one. Only the first is read; mixing them would make
 *   the rate flip between the two at every settlement. `fundingRate` is a JSON number.
 * No message states the next settlement or the interval; those stay with the round.
 */
export const kucoinfuturesStream: VenueStreamProtocol = {
  venue: "kucoinfutures",
  sockets: (venueMarketIds) =>
    socketsOf(KUCOIN_FUTURES_BULLET_URL, venueMarketIds, KUCOIN_SYMBOLS_PER_SOCKET, (socketSymbols) =>
      chunk(socketSymbols, KUCOIN_SYMBOLS_PER_TOPIC).map((symbols, i) =>
        JSON.stringify({ id: String(i + 1), type: "subscribe", topic: `/contract/instrument:${symbols.join(",")}`, privateChannel: false, response: true }),
      ),
    ),
  connectUrl: kucoinConnectUrl,
  // The bullet answer names `pingInterval` (18000 ms today); a text ping at that pace keeps the socket.
  keepalive: { frame: JSON.stringify({ id: "ping", type: "ping" }), everyMs: 18_000 },
  stallAfterMs: 10_000,
  decode: (frame) => decodeMessage(frame, readKucoinMessage),
};

function readKucoinMessage(message: JsonRecord, text: string): StreamEvent[] {
  switch (message.type) {
    case "message":
      return decodeInstrument(message, text);
    case "welcome":
    case "pong":
      return [{ kind: "heartbeat" }];
    case "ack":
      return [{ kind: "ack" }];
    case "error":
      return [errorEvent(`kucoinfutures ${String(message.code)}: ${JSON.stringify(message.data)}`)];
    default:
      return unexpectedFrame(text);
  }
}

function decodeInstrument(message: JsonRecord, text: string): StreamEvent[] {
  const topic = asString(message.topic);
  const data = asRecord(message.data);
  if (!topic?.startsWith("/contract/instrument:") || !data) return unexpectedFrame(text);
  const symbol = topic.slice("/contract/instrument:".length);
  const venueTime = epochMs(data.timestamp);
  if (message.subject === "mark.index.price") {
    return updatesEvent(updateOf(symbol, presentFields({ markPrice: venueNumber(data.markPrice), indexPrice: venueNumber(data.indexPrice) }), venueTime));
  }
  if (message.subject === "funding.rate") {
    if (venueNumber(data.granularity) !== MINUTE_GRANULARITY) return [{ kind: "heartbeat" }];
    return updatesEvent(updateOf(symbol, presentFields({ fundingRate: venueNumber(data.fundingRate) }), venueTime));
  }
  return unexpectedFrame(text);
}

/**
 * The socket URL for one connect: `POST bullet-public` answers `{code: "200000", data: {token,
 * instanceServers: [{endpoint, pingInterval, …}]}}`; the socket is `<endpoint>?token=<token>`.
 * A token is good for one connection, so every reconnect asks again.
 */
export async function kucoinConnectUrl(planUrl: string, fetch: typeof globalThis.fetch): Promise<string> {
  const response = await fetch(planUrl, { method: "POST" });
  if (!response.ok) throw new AppError("VENUE_UNAVAILABLE", `kucoinfutures bullet-public answered HTTP ${response.status}`);
  const body = asRecord(await response.json().catch(() => undefined));
  const data = asRecord(body?.data);
  const token = asString(data?.token);
  const endpoint = asArray(data?.instanceServers)
    .map((server) => asString(asRecord(server)?.endpoint))
    .find((value) => value !== undefined);
  if (body?.code !== "200000" || token === undefined || endpoint === undefined) {
    throw new AppError("VENUE_UNAVAILABLE", `kucoinfutures bullet-public gave no endpoint and token (code ${String(body?.code)})`);
  }
  const url = new URL(endpoint);
  url.searchParams.set("token", token);
  return url.toString();
}
