import { asRecord, decodeMessage, errorEvent, FrameUpdates, type JsonRecord, unexpectedFrame } from "./stream-frames";
import type { StreamEvent, StreamFields, VenueStreamProtocol } from "./stream-protocol";

const URL = "wss://indexer.dydx.trade/v4/ws";

/**
 * dYdX v4's indexer `v4_markets` channel (docs.dydx.exchange, "Indexer WebSocket"): one
 * subscription for every market. The `subscribed` answer holds every market's full state, as the
 * connector reads it from `perpetualMarkets`; `channel_data` then carries either `trading`
 * (partial per-market fields: only those that changed) or `oraclePrices`. The connector's rules:
 * `nextFundingRate` (the running hourly estimate of the tick to come) is both the rate and the
 * predicted rate, and the oracle price is both mark and index. No message carries a time except
 * an oracle price's `effectiveAt`, nor the next settlement (the round's next whole hour).
 */
export const dydxStream: VenueStreamProtocol = {
  venue: "dydx",
  sockets: (venueMarketIds) =>
    venueMarketIds.length === 0 ? [] : [{ url: URL, subscribe: [JSON.stringify({ type: "subscribe", channel: "v4_markets" })] }],
  // The indexer pings every 30 s and wants a pong within 10 s: the ws library's protocol pong.
  // Oracle prices move every few seconds; a silent minute is a stall.
  stallAfterMs: 60_000,
  decode: (frame) => decodeMessage(frame, readDydxMessage),
};

function readDydxMessage(message: JsonRecord, text: string): StreamEvent[] {
  switch (message.type) {
    case "connected":
    case "unsubscribed":
      return [{ kind: "heartbeat" }];
    case "error":
      return [errorEvent(`venue error: ${String(message.message)}`)];
    case "subscribed": {
      const markets = asRecord(asRecord(message.contents)?.markets);
      if (!markets) return [errorEvent("subscribed without contents.markets")];
      return [{ kind: "ack" }, ...decodeMarkets(markets, tradingFields)];
    }
    case "channel_data": {
      const contents = asRecord(message.contents);
      const trading = asRecord(contents?.trading);
      const oracle = asRecord(contents?.oraclePrices);
      if (!trading && !oracle) return [errorEvent(`channel_data without trading or oraclePrices: ${JSON.stringify(contents).slice(0, 80)}`)];
      return [...(trading ? decodeMarkets(trading, tradingFields) : []), ...(oracle ? decodeMarkets(oracle, oracleFields) : [])];
    }
    default:
      return unexpectedFrame(text);
  }
}

type ReadFields = (row: JsonRecord, id: string, out: FrameUpdates) => { fields: StreamFields; venueTime: number | null };

/** Rows keyed by ticker (`BTC-USD`), the connector's `venueMarketId`. */
function decodeMarkets(byTicker: JsonRecord, read: ReadFields): StreamEvent[] {
  const out = new FrameUpdates();
  for (const [ticker, item] of Object.entries(byTicker)) {
    const row = asRecord(item);
    if (!row) {
      out.problem(`${ticker} is not an object`);
      continue;
    }
    const { fields, venueTime } = read(row, ticker, out);
    out.push(ticker, fields, venueTime);
  }
  return out.events();
}

/** A snapshot row or a `trading` partial: only the keys present (a partial of open interest only says nothing here). */
const tradingFields: ReadFields = (row, id, out) => {
  const fields: StreamFields = {};
  out.set(fields, "fundingRate", row.nextFundingRate, id);
  out.set(fields, "predictedFundingRate", row.nextFundingRate, id);
  out.set(fields, "markPrice", row.oraclePrice, id);
  out.set(fields, "indexPrice", row.oraclePrice, id);
  return { fields, venueTime: null };
};

const oracleFields: ReadFields = (row, id, out) => {
  const fields: StreamFields = {};
  out.set(fields, "markPrice", row.oraclePrice, id);
  out.set(fields, "indexPrice", row.oraclePrice, id);
  const effectiveAt = typeof row.effectiveAt === "string" ? Date.parse(row.effectiveAt) : Number.NaN;
  return { fields, venueTime: Number.isFinite(effectiveAt) ? effectiveAt : null };
};
