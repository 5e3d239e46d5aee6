import { asRecord, decodeMessage, errorEvent, FrameUpdates, type JsonRecord, unexpectedFrame } from "./stream-frames";
import type { StreamEvent, StreamFields, VenueStreamProtocol } from "./stream-protocol";

const URL = "wss://api.hyperliquid.xyz/ws";

/** The first (validator-run) dex, the one the connector lists, is named by the empty string. */
const FIRST_DEX = "";

/**
 * Hyperliquid's `allDexsAssetCtxs` (hyperliquid.gitbook.io, "Subscriptions"): one subscription, and
 * each push holds every asset context of every dex, each dex's list in its `meta` universe order
 * with no coin name. That order is the asset index, which is the market id ccxt gives a first-dex
 * perpetual (`"0"` is BTC) and so the connector's `venueMarketId`: the i-th context is market
 * `String(i)`.
 *
 * The per-coin `activeAssetCtx` (about one push a second) is keyed by coin name (`BTC`, `kPEPE`),
 * which a protocol given market ids cannot subscribe (an unknown name closes the socket) nor place;
 * so the all-dex channel, pushed about every 14 s (probed 2026-09), is the one used.
 *
 * A context has `funding` (the hourly rate, per the market's one-hour interval, as the connector
 * reads it from `metaAndAssetCtxs`), `markPx` and `oraclePx` (the connector's index). No
 * timestamp, no next settlement and no predicted rate: those come from the round's
 * `predictedFundings`.
 */
export const hyperliquidStream: VenueStreamProtocol = {
  venue: "hyperliquid",
  sockets: (venueMarketIds) =>
    venueMarketIds.length === 0
      ? []
      : [{ url: URL, subscribe: [JSON.stringify({ method: "subscribe", subscription: { type: "allDexsAssetCtxs" } })] }],
  // "The server will close any connection if it hasn't sent a message to it in the last 60 seconds."
  keepalive: { frame: JSON.stringify({ method: "ping" }), everyMs: 30_000 },
  // About four pushes a minute; a minute without one is a stall.
  stallAfterMs: 60_000,
  decode: (frame) => decodeMessage(frame, readHyperliquidMessage),
};

function readHyperliquidMessage(message: JsonRecord, text: string): StreamEvent[] {
  switch (message.channel) {
    case "subscriptionResponse":
      return [{ kind: "ack" }];
    case "pong":
      return [{ kind: "heartbeat" }];
    case "error":
      return [errorEvent(`venue error: ${String(message.data)}`)];
    case "allDexsAssetCtxs":
      return decodeAllDexs(asRecord(message.data)?.ctxs);
    // Keyed by coin name, not by the market id: not subscribed here (see above), and a frame of it
    // says nothing this protocol can place.
    case "activeAssetCtx":
    case "activeSpotAssetCtx":
      return [];
    default:
      return unexpectedFrame(text);
  }
}

function decodeAllDexs(ctxs: unknown): StreamEvent[] {
  if (!Array.isArray(ctxs)) return [errorEvent("allDexsAssetCtxs without a ctxs list")];
  const firstDex = ctxs.find((entry): entry is [string, unknown[]] => Array.isArray(entry) && entry[0] === FIRST_DEX && Array.isArray(entry[1]));
  if (!firstDex) return [errorEvent("allDexsAssetCtxs without the first dex")];
  const out = new FrameUpdates();
  firstDex[1].forEach((item, index) => {
    const ctx = asRecord(item);
    const id = String(index);
    if (!ctx) {
      out.problem(`context ${id} is not an object`);
      return;
    }
    out.push(id, contextFields(ctx, id, out), null);
  });
  return out.events();
}

function contextFields(ctx: JsonRecord, id: string, out: FrameUpdates): StreamFields {
  const fields: StreamFields = {};
  out.set(fields, "fundingRate", ctx.funding, id);
  out.set(fields, "markPrice", ctx.markPx, id);
  out.set(fields, "indexPrice", ctx.oraclePx, id);
  return fields;
}
