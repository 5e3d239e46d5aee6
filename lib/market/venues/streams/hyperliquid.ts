import { asRecord, asString, chunk, decodeMessage, distinct, errorEvent, FrameUpdates, type JsonRecord, unexpectedFrame } from "./stream-frames";
import type { StreamEvent, StreamFields, StreamSocketPlan, VenueStreamProtocol } from "./stream-protocol";

const URL = "wss://api.hyperliquid.xyz/ws";

/**
 * Hyperliquid allows an IP 1000 subscriptions, 10 connections (100 in an older version of the
 * page), 30 new connections and 2000 sent messages a minute (hyperliquid.gitbook.io, "Rate limits
 * and user limits"). One `activeAssetCtx` subscription is one coin. The 1000 are shared with the
 * HIP-3 dexes' protocols (hyperliquid-hip3.ts: 100 coins each, seven dexes): the first dex keeps
 * 300, well above the about 180 perpetuals it lists (234 with the delisted); a coin past its share
 * is left to the live feeds' silence poll.
 */
export const HYPERLIQUID_IP_SUBSCRIPTIONS = 1000;
export const HYPERLIQUID_MAX_SUBSCRIPTIONS = 300;

/**
 * Coins a socket: at most four sockets for the whole cap, and a reconnect resubscribes (one message
 * a coin) at most an eighth of the 2000 messages a minute. It also bounds what one coin the venue
 * does not know costs: that closes its socket, every subscription on it with it.
 */
export const HYPERLIQUID_COINS_PER_SOCKET = 250;

/**
 * Hyperliquid's `activeAssetCtx` (hyperliquid.gitbook.io, "Subscriptions"): one subscription a
 * coin, pushed about once a second whether or not it changed (0.99 frames a second on BTC, NOT and
 * `xyz:SP500`, arbitrage-observatory probe of 2026-09-24). Messages and subscriptions name the
 * coin (`BTC`, `kPEPE`, `xyz:SP500` on a HIP-3 dex), the connector's `venueBase` (the universe
 * `name`), while its `venueMarketId` is ccxt's asset index (`"0"` is BTC): so `streamKey` is the
 * coin, `sockets` is given coins and updates name coins, and the live feeds map them back.
 *
 * A context has `funding` (the hourly rate, per the market's one-hour interval, as the connector
 * reads it from `metaAndAssetCtxs`), `markPx` and `oraclePx` (the connector's index). No
 * timestamp, no next settlement and no predicted rate: those stay the round's `predictedFundings`.
 *
 * The all-market `allDexsAssetCtxs` is not subscribed: it pushes every 14 s or so, its contexts
 * carry no coin (only each dex's universe position), and every listed coin fits the per-coin cap.
 */
export const hyperliquidStream: VenueStreamProtocol = {
  venue: "hyperliquid",
  streamKey: (market) => market.venueBase,
  sockets: (coins) => hyperliquidSockets(coins),
  // "The server will close any connection if it hasn't sent a message to it in the last 60 seconds."
  keepalive: { frame: JSON.stringify({ method: "ping" }), everyMs: 30_000 },
  // Every coin pushes about once a second: ten seconds without a context is a stall.
  stallAfterMs: 10_000,
  decode: (frame) => decodeMessage(frame, readHyperliquidMessage),
};

/** One subscribe message a coin (a coin list is refused), each coin once, cut to `cap` and into sockets. */
export function hyperliquidSockets(coins: readonly string[], cap = HYPERLIQUID_MAX_SUBSCRIPTIONS): StreamSocketPlan[] {
  const subscribed = distinct(coins).slice(0, cap);
  return chunk(subscribed, HYPERLIQUID_COINS_PER_SOCKET).map((group) => ({
    url: URL,
    subscribe: group.map((coin) => JSON.stringify({ method: "subscribe", subscription: { type: "activeAssetCtx", coin } })),
  }));
}

export function readHyperliquidMessage(message: JsonRecord, text: string): StreamEvent[] {
  switch (message.channel) {
    case "subscriptionResponse":
      return [{ kind: "ack" }];
    case "pong":
      return [{ kind: "heartbeat" }];
    case "error":
      return [errorEvent(`venue error: ${String(message.data)}`)];
    case "activeAssetCtx":
      return decodeAssetCtx(asRecord(message.data));
    // A spot coin's context (`@2`): no funding, and never subscribed here.
    case "activeSpotAssetCtx":
      return [];
    default:
      return unexpectedFrame(text);
  }
}

function decodeAssetCtx(data: JsonRecord | undefined): StreamEvent[] {
  const coin = asString(data?.coin);
  const ctx = asRecord(data?.ctx);
  if (!coin || !ctx) return [errorEvent("activeAssetCtx without a coin and its ctx")];
  const out = new FrameUpdates();
  out.push(coin, contextFields(ctx, coin, out), null);
  return out.events();
}

function contextFields(ctx: JsonRecord, coin: string, out: FrameUpdates): StreamFields {
  const fields: StreamFields = {};
  out.set(fields, "fundingRate", ctx.funding, coin);
  out.set(fields, "markPrice", ctx.markPx, coin);
  out.set(fields, "indexPrice", ctx.oraclePx, coin);
  return fields;
}
