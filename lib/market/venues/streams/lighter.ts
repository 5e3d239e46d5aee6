import { nextWholeHour } from "../connectors/dydx";
import { asRecord, decodeMessage, epochMs, errorEvent, FrameUpdates, type JsonRecord, unexpectedFrame } from "./stream-frames";
import type { StreamEvent, StreamFields, VenueStreamProtocol } from "./stream-protocol";

const URL = "wss://mainnet.zklighter.elliot.ai/stream";

/**
 * `market_stats` writes rates in **percent per hour**: the recorded ETH row's
 * `current_funding_rate` `"0.0011"` is 0.0011 % an hour, 0.000011, the size of the 0.000012 an
 * hour the connector derives from `funding-rates` (whose figure is per 8 h) and of the `"0.0012"`
 * `GET /fundings` lists in percent. Lighter settles hourly, so the hourly rate is the rate per
 * interval. The quotient is rounded to 12 significant digits, as the connector does, so binary
 * noise does not show as a change.
 */
export function lighterPercentRate(percent: number): number {
  return Number((percent / 100).toPrecision(12));
}

/**
 * Lighter's `market_stats/all` (apidocs.lighter.xyz, "WebSocket reference"): one subscription, and
 * each message holds every market's stats keyed by `market_id` (the connector's `venueMarketId`,
 * `"0"` ETH, `"1"` BTC). `current_funding_rate` is the running rate of the hour to come (the
 * connector's rate; `funding_rate` is the one last settled at `funding_timestamp`), with
 * `mark_price` and `index_price`. Settlements fall on every whole hour, so the next one is the
 * hour after the message's time, the connector's rule.
 */
export const lighterStream: VenueStreamProtocol = {
  venue: "lighter",
  sockets: (venueMarketIds) =>
    venueMarketIds.length === 0 ? [] : [{ url: URL, subscribe: [JSON.stringify({ type: "subscribe", channel: "market_stats/all" })] }],
  // Lighter closes a connection the client has sent nothing on for 2 minutes.
  keepalive: { frame: JSON.stringify({ type: "ping" }), everyMs: 60_000 },
  stallAfterMs: 30_000,
  decode: (frame) => decodeMessage(frame, readLighterMessage),
};

function readLighterMessage(message: JsonRecord, text: string): StreamEvent[] {
  if (message.error !== undefined) return [errorEvent(`venue error: ${JSON.stringify(message.error)}`)];
  switch (message.type) {
    case "ping":
      return [{ kind: "reply", frame: JSON.stringify({ type: "pong" }) }];
    case "pong":
    case "connected":
      return [{ kind: "heartbeat" }];
    case "subscribed/market_stats":
      return [{ kind: "ack" }, ...decodeStats(message)];
    case "update/market_stats":
      return decodeStats(message);
    default:
      return unexpectedFrame(text);
  }
}

function decodeStats(message: JsonRecord): StreamEvent[] {
  const stats = asRecord(message.market_stats);
  if (!stats) return [errorEvent("market_stats message without market_stats")];
  const venueTime = epochMs(message.timestamp) ?? null;
  const out = new FrameUpdates();
  for (const [key, item] of Object.entries(stats)) {
    const row = asRecord(item);
    if (!row) {
      out.problem(`market ${key} is not an object`);
      continue;
    }
    // `market_id` is a number in the row and a string as the key.
    const id = String(row.market_id ?? key);
    const fields: StreamFields = {};
    out.set(fields, "fundingRate", row.current_funding_rate, id, lighterPercentRate);
    out.set(fields, "markPrice", row.mark_price, id);
    out.set(fields, "indexPrice", row.index_price, id);
    if (venueTime !== null && row.current_funding_rate !== undefined) fields.nextFundingAt = nextWholeHour(venueTime);
    out.push(id, fields, venueTime);
  }
  return out.events();
}
