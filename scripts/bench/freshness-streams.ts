// The venues' streams for `npm run bench:freshness`: one loopback WebSocket server that serves every
// replayed venue by path (VENUE_STREAM_URL_OVERRIDE keeps the venue's host as the first part of the
// path) and plays, per venue, frames in that venue's recorded shape at the venue's push rate
// (lib/market/venues/streams/README.md), for the markets the widened REST replay lists. Each
// frame's shape is the venue's fixture row (tests/fixtures/streams/<venue>/, named per venue below)
// with the fields its protocol reads; the values move every frame (mark and index prices), and a
// funding rate changes `rateChangesPerSecond` times a second per venue, to a value no other change
// of that venue has (the send time of each is stamped, keyed by venue and value, for the bench to
// match the opportunity frames and answers that carry it). Per-market channels send each market's
// frames only on the socket whose subscribe frames named it, as the venue would (or on every
// subscribed socket where one subscription covers every market). The same server answers, over plain
// HTTP, the REST a venue's stream asks before it connects (KuCoin's token), by the same path rule,
// and `GET /bench-state/<venue>`: what the venue's frames have told of each market (its channels'
// frames of the current rows, decoded by the venue's protocol), which the server's REST replay
// (freshness-venues.ts) answers in place of the recorded rate and prices, so a venue's REST and
// stream tell the same state, as a real venue's do.
import { createServer } from "node:http";
import { gzipSync } from "node:zlib";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import type { VenueId } from "@/lib/market/model/types";
import { KUCOIN_FUTURES_BULLET_URL } from "@/lib/market/venues/streams/kucoinfutures";
import type { StreamFields } from "@/lib/market/venues/streams/stream-protocol";
import { STREAM_PROTOCOLS } from "@/lib/market/venues/streams/stream-protocols";
import { perpetualSummary } from "@/tests/fixtures/streams/paradex/sbe-frames";

export interface Row {
  id: string;
  rate: number;
  mark: number;
  /** Epoch ms of the next settlement (the next whole 8 h). */
  next: number;
}

interface Channel {
  /** The push period: one frame of every market (all) or of each market (per market), spread evenly. */
  everyMs: number;
  all: boolean;
  /** Whether the channel carries the funding rate (the mark-only channels never change one). */
  rate: boolean;
  frame(rows: readonly Row[], now: number): string | Buffer;
}

interface VenueSpec {
  /** The venue's stream host, as the override puts it first in the path. */
  host: string;
  channels: Channel[];
  /** One subscription covers every market (a table or an all-markets channel): per-market frames go to every subscribed socket. */
  coversAll?: boolean;
  /** What the venue sends back to a frame the client sent (acks, the snapshot a subscription opens with, pongs). */
  answer?(sent: string, rows: readonly Row[], now: number): string[];
  /** REST the stream asks before connecting (KuCoin's token): the venue's URL (POST) and the JSON answer. */
  rest?: { url: string; answer(): unknown };
}

const s = (n: number) => String(n);
const markPriceRows = (rows: readonly Row[], now: number) =>
  JSON.stringify(rows.map((r) => ({ e: "markPriceUpdate", E: now, s: r.id, p: s(r.mark), P: s(r.mark), i: s(r.mark), r: s(r.rate), T: r.next })));

/** A frame the client sent, as JSON (undefined for text such as BitMEX's `ping`). */
function subscribeFrame(sent: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(sent) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
const iso = (ms: number) => new Date(ms).toISOString();
const nanoseconds = (ms: number) => `${Math.round(ms)}000000`;
/** A rate as percentage points (Lighter, GRVT), rounded so the venue's ÷100 gives the rate back. */
const percentOf = (rate: number) => Number((rate * 100).toPrecision(12));
const DYDX_CONNECTION = "3a2e4c0c-7579-4bf6-a570-e0979418bbe9";
let dydxMessages = 1;
let grvtSequence = 0;
let kucoinTokens = 0;
/** Lighter's `market_stats` frame of these markets (`type` subscribed/ or update/). */
const lighterStats = (type: string, rows: readonly Row[], now: number) =>
  JSON.stringify({
    type,
    channel: "market_stats:all",
    timestamp: now,
    market_stats: Object.fromEntries(
      rows.map((r) => [
        r.id,
        { market_id: Number(r.id), index_price: s(r.mark), mark_price: s(r.mark), current_funding_rate: s(percentOf(r.rate)), funding_rate: s(percentOf(r.rate)), funding_timestamp: now - (now % 3_600_000) },
      ]),
    ),
  });

/** The replayed venues. Template rows: the fixture named beside each. */
export const VENUE_SPECS: Partial<Record<VenueId, VenueSpec>> = {
  // binance/markPriceUpdate_2019-2021_tardis.jsonl rows, as the all-market array.
  binance: { host: "fstream.binance.com", channels: [{ everyMs: 1_000, all: true, rate: true, frame: markPriceRows }] },
  // aster/markPrice_asterdex-docs.jsonl.
  aster: { host: "fstream.asterdex.com", channels: [{ everyMs: 1_000, all: true, rate: true, frame: markPriceRows }] },
  // bybit/tickers_v5_2023-04-05_tardis.jsonl (a delta).
  bybit: {
    host: "stream.bybit.com",
    channels: [
      {
        everyMs: 100,
        all: false,
        rate: true,
        frame: ([r], now) =>
          JSON.stringify({ topic: `tickers.${r!.id}`, type: "delta", data: { symbol: r!.id, markPrice: s(r!.mark), indexPrice: s(r!.mark), fundingRate: s(r!.rate), nextFundingTime: s(r!.next) }, cs: now, ts: now }),
      },
    ],
  },
  // okx/funding-rate_mark-price_v5_2021-12_tardis.jsonl: funding-rate every 60 s, mark-price 200 ms.
  okx: {
    host: "ws.okx.com:8443",
    channels: [
      {
        everyMs: 60_000,
        all: false,
        rate: true,
        frame: ([r], now) =>
          JSON.stringify({ arg: { channel: "funding-rate", instId: r!.id }, data: [{ fundingRate: s(r!.rate), fundingTime: s(r!.next), instId: r!.id, instType: "SWAP", nextFundingRate: s(r!.rate), ts: s(now) }] }),
      },
      { everyMs: 200, all: false, rate: false, frame: ([r], now) => JSON.stringify({ arg: { channel: "mark-price", instId: r!.id }, data: [{ instId: r!.id, instType: "SWAP", markPx: s(r!.mark), ts: s(now) }] }) },
    ],
  },
  // bitget/ticker_v2_2024-10-31_tardis.jsonl.
  bitget: {
    host: "ws.bitget.com",
    channels: [
      {
        everyMs: 200,
        all: false,
        rate: true,
        frame: ([r], now) =>
          JSON.stringify({
            action: "snapshot",
            arg: { instType: r!.id.endsWith("PERP") ? "USDC-FUTURES" : "USDT-FUTURES", channel: "ticker", instId: r!.id },
            data: [{ instId: r!.id, markPrice: s(r!.mark), indexPrice: s(r!.mark), fundingRate: s(r!.rate), nextFundingTime: s(r!.next), ts: s(now) }],
            ts: now,
          }),
      },
    ],
  },
  // gate/futures.tickers_2020-2023_tardis.jsonl; Gate documents no push rate: 1 s.
  gate: {
    host: "fx-ws.gateio.ws",
    channels: [
      {
        everyMs: 1_000,
        all: false,
        rate: true,
        frame: ([r], now) =>
          JSON.stringify({ time: Math.floor(now / 1000), time_ms: now, channel: "futures.tickers", event: "update", result: [{ contract: r!.id, mark_price: s(r!.mark), index_price: s(r!.mark), funding_rate: s(r!.rate), funding_rate_indicative: s(r!.rate) }] }),
      },
    ],
  },
  // hyperliquid/activeAssetCtx_BTC_built_from_probe.jsonl: one coin's context a frame, every coin about once a
  // second (0.99 a second, probed). Hyperliquid names markets by coin, so its markets' ids here are coins.
  hyperliquid: {
    host: "api.hyperliquid.xyz",
    channels: [
      {
        everyMs: 1_000,
        all: false,
        rate: true,
        frame: ([r]) =>
          JSON.stringify({
            channel: "activeAssetCtx",
            data: {
              coin: r!.id,
              ctx: { funding: s(r!.rate), openInterest: "1000.0", prevDayPx: s(r!.mark), dayNtlVlm: "1000000.0", premium: "0.0", oraclePx: s(r!.mark), markPx: s(r!.mark), midPx: s(r!.mark), impactPxs: [s(r!.mark), s(r!.mark)], dayBaseVlm: "1000.0" },
            },
          }),
      },
    ],
  },
  // mexc/push.ticker_2022-06-02_cmp.jsonl.
  mexc: {
    host: "contract.mexc.com",
    channels: [
      {
        everyMs: 1_000,
        all: false,
        rate: true,
        frame: ([r], now) => JSON.stringify({ channel: "push.ticker", data: { symbol: r!.id, fairPrice: r!.mark, indexPrice: r!.mark, fundingRate: r!.rate, timestamp: now }, symbol: r!.id, ts: now }),
      },
    ],
  },
  // deribit/ticker_BTC-PERPETUAL_2022-06-02_cmp.jsonl.
  deribit: {
    host: "www.deribit.com",
    channels: [
      {
        everyMs: 100,
        all: false,
        rate: true,
        frame: ([r], now) =>
          JSON.stringify({ jsonrpc: "2.0", method: "subscription", params: { channel: `ticker.${r!.id}.100ms`, data: { timestamp: now, instrument_name: r!.id, mark_price: r!.mark, index_price: r!.mark, current_funding: r!.rate } } }),
      },
    ],
  },
  // coinex/state.update_2026-09-23_observatory.jsonl (gzip frames, as CoinEx sends them).
  coinex: {
    host: "socket.coinex.com",
    channels: [
      {
        everyMs: 200,
        all: true,
        rate: true,
        frame: (rows) =>
          gzipSync(
            JSON.stringify({
              method: "state.update",
              id: null,
              data: { state_list: rows.map((r) => ({ market: r.id, mark_price: s(r.mark), index_price: s(r.mark), latest_funding_rate: s(r.rate), next_funding_rate: s(r.rate), latest_funding_time: r.next, next_funding_time: r.next + 28_800_000 })) },
            }),
          ),
      },
    ],
  },
  // woo/v3_frames_2026-09-23_observatory.jsonl: markprice every second, estfundingrate every minute.
  woo: {
    host: "wss.woox.io",
    channels: [
      { everyMs: 1_000, all: false, rate: false, frame: ([r], now) => JSON.stringify({ topic: `markprice@${r!.id}`, ts: now, data: { ts: now, px: s(r!.mark), s: r!.id } }) },
      { everyMs: 60_000, all: false, rate: true, frame: ([r], now) => JSON.stringify({ topic: `estfundingrate@${r!.id}`, ts: now, data: { s: r!.id, r: s(r!.rate), ft: r!.next, ts: now } }) },
    ],
  },
  // backpack/markPrice_2026-09-23_observatory.jsonl (times in µs).
  backpack: {
    host: "ws.backpack.exchange",
    channels: [
      {
        everyMs: 1_000,
        all: false,
        rate: true,
        frame: ([r], now) => JSON.stringify({ data: { E: now * 1000, T: now * 1000, e: "markPrice", f: s(r!.rate), i: s(r!.mark), n: r!.next, p: s(r!.mark), s: r!.id }, stream: `markPrice.${r!.id}` }),
      },
    ],
  },
  // htx/funding_rate_2021-2022_cmp.jsonl (gzip): one contract's funding a frame, each contract once a minute.
  htx: {
    host: "api.hbdm.vn",
    // `public.*.funding_rate` names no contract: every contract's frames go to the subscribed socket.
    coversAll: true,
    channels: [
      {
        everyMs: 60_000,
        all: false,
        rate: true,
        frame: ([r], now) =>
          gzipSync(
            JSON.stringify({
              op: "notify",
              topic: `public.${r!.id}.funding_rate`,
              ts: now,
              data: [{ symbol: r!.id.split("-")[0], contract_code: r!.id, fee_asset: "USDT", funding_time: s(now - (now % 60_000)), funding_rate: s(r!.rate), estimated_rate: s(r!.rate), settlement_time: s(r!.next) }],
            }),
          ),
      },
    ],
  },
  // phemex/perp_market24h_pack_p_docs-example.jsonl (columnar).
  phemex: {
    host: "ws.phemex.com",
    channels: [
      {
        everyMs: 1_000,
        all: true,
        rate: true,
        frame: (rows, now) =>
          JSON.stringify({
            data: rows.map((r) => [r.id, s(r.mark), s(r.mark), s(r.mark), s(r.mark), "1", "1", "0", s(r.mark), s(r.mark), s(r.rate), s(r.rate)]),
            fields: ["symbol", "openRp", "highRp", "lowRp", "lastRp", "volumeRq", "turnoverRv", "openInterestRv", "indexRp", "markRp", "fundingRateRr", "predFundingRateRr"],
            method: "perp_market24h_pack_p.update",
            timestamp: now * 1_000_000,
            type: "incremental",
          }),
      },
    ],
  },
  // lighter/market_stats_all_2026-04-20_tardis.jsonl: every market in one frame, keyed by market_id (the
  // widened replay's integer ids, a string key and a number inside), rates in percent an hour; the
  // subscription opens with `subscribed/market_stats` of every market. Lighter documents no push
  // rate: 400 ms, the recorded frames' spacing (lib/market/venues/streams/README.md).
  lighter: {
    host: "mainnet.zklighter.elliot.ai",
    coversAll: true,
    answer: (sent, rows, now) => (subscribeFrame(sent)?.channel === "market_stats/all" ? [lighterStats("subscribed/market_stats", rows, now)] : []),
    channels: [{ everyMs: 400, all: true, rate: true, frame: (rows, now) => lighterStats("update/market_stats", rows, now) }],
  },
  // dydx/v4_markets_2024-08-23_tardis.jsonl: the `subscribed` snapshot of every market (keyed by
  // ticker), then `channel_data` partials: `trading` with one market's `nextFundingRate`, and
  // `oraclePrices` of every market. dYdX documents no push rate: oracle prices every 1 s (a block),
  // each market's funding estimate once a minute (the chain samples funding each minute).
  dydx: {
    host: "indexer.dydx.trade",
    coversAll: true,
    answer: (sent, rows) =>
      subscribeFrame(sent)?.channel === "v4_markets"
        ? [
            JSON.stringify({
              type: "subscribed",
              connection_id: DYDX_CONNECTION,
              message_id: 1,
              channel: "v4_markets",
              contents: {
                markets: Object.fromEntries(
                  rows.map((r, i) => [r.id, { clobPairId: String(i), ticker: r.id, status: "ACTIVE", oraclePrice: s(r.mark), nextFundingRate: s(r.rate), openInterest: "1", marketType: "CROSS" }]),
                ),
              },
            }),
          ]
        : [],
    channels: [
      {
        everyMs: 60_000,
        all: false,
        rate: true,
        frame: ([r]) => JSON.stringify({ type: "channel_data", connection_id: DYDX_CONNECTION, message_id: ++dydxMessages, channel: "v4_markets", version: "1.0.0", contents: { trading: { [r!.id]: { nextFundingRate: s(r!.rate) } } } }),
      },
      {
        everyMs: 1_000,
        all: true,
        rate: false,
        frame: (rows, now) =>
          JSON.stringify({
            type: "channel_data",
            connection_id: DYDX_CONNECTION,
            message_id: ++dydxMessages,
            channel: "v4_markets",
            version: "1.0.0",
            contents: { oraclePrices: Object.fromEntries(rows.map((r, i) => [r.id, { oraclePrice: s(r.mark), effectiveAt: new Date(now).toISOString(), effectiveAtHeight: s(Math.floor(now / 1000)), marketId: i }])) },
          }),
      },
    ],
  },
  // bitmex/instrument_*.jsonl: the `instrument` table, one subscription for every instrument, opened
  // by its `partial` of every row, then `update` rows with only the fields that changed. BitMEX
  // documents no push rate: marks about every 5 s (README), funding fields once a minute per
  // instrument (a choice, as OKX's and WOO's funding channels).
  bitmex: {
    host: "ws.bitmex.com",
    coversAll: true,
    answer: (sent, rows, now) => {
      if (sent === "ping") return ["pong"];
      const subscribe = subscribeFrame(sent);
      if (subscribe?.op !== "subscribe" || !Array.isArray(subscribe.args) || !subscribe.args.includes("instrument")) return [];
      return [
        JSON.stringify({ success: true, subscribe: "instrument", request: subscribe }),
        JSON.stringify({
          table: "instrument",
          action: "partial",
          filter: {},
          data: rows.map((r) => ({
            symbol: r.id,
            state: "Open",
            typ: "FFWCSX",
            fundingTimestamp: iso(r.next),
            fundingInterval: "2000-01-01T08:00:00.000Z",
            fundingRate: r.rate,
            indicativeFundingRate: r.rate,
            markPrice: r.mark,
            fairPrice: r.mark,
            indicativeSettlePrice: r.mark,
            timestamp: iso(now),
          })),
        }),
      ];
    },
    channels: [
      {
        everyMs: 5_000,
        all: false,
        rate: false,
        frame: ([r], now) => JSON.stringify({ table: "instrument", action: "update", data: [{ symbol: r!.id, fairPrice: r!.mark, markPrice: r!.mark, timestamp: iso(now), indicativeSettlePrice: r!.mark }] }),
      },
      {
        everyMs: 60_000,
        all: false,
        rate: true,
        frame: ([r], now) =>
          JSON.stringify({ table: "instrument", action: "update", data: [{ symbol: r!.id, fundingRate: r!.rate, indicativeFundingRate: r!.rate, fundingTimestamp: iso(r!.next), timestamp: iso(now) }] }),
      },
    ],
  },
  // kucoinfutures/contract_instrument_2024-01-24_tardis.jsonl: per market, `mark.index.price` every
  // second (granularity 1000) and `funding.rate` at granularity 60000 once a minute (KuCoin's
  // granularities). The socket's URL comes from bullet-public, answered here with this server's
  // venue endpoint (the answer's shape as KuCoin documents it); each subscribe is acked.
  kucoinfutures: {
    host: "ws-api-futures.kucoin.com",
    rest: {
      url: KUCOIN_FUTURES_BULLET_URL,
      answer: () => ({
        code: "200000",
        data: { token: `bench-${++kucoinTokens}`, instanceServers: [{ endpoint: "wss://ws-api-futures.kucoin.com/", protocol: "websocket", encrypt: true, pingInterval: 18000, pingTimeout: 10000 }] },
      }),
    },
    answer: (sent) => {
      const message = subscribeFrame(sent);
      if (message?.type === "ping") return [JSON.stringify({ id: message.id, type: "pong" })];
      return message?.type === "subscribe" && message.response === true ? [JSON.stringify({ id: message.id, type: "ack" })] : [];
    },
    channels: [
      {
        everyMs: 1_000,
        all: false,
        rate: false,
        frame: ([r], now) => JSON.stringify({ topic: `/contract/instrument:${r!.id}`, type: "message", subject: "mark.index.price", data: { markPrice: r!.mark, indexPrice: r!.mark, granularity: 1000, timestamp: now } }),
      },
      {
        everyMs: 60_000,
        all: false,
        rate: true,
        frame: ([r], now) => JSON.stringify({ topic: `/contract/instrument:${r!.id}`, type: "message", subject: "funding.rate", data: { granularity: 60000, fundingRate: r!.rate, timestamp: now - (now % 60_000) } }),
      },
    ],
  },
  // grvt/v1.ticker.s_docs-example.jsonl: per instrument, the full ticker snapshot at the `@500`
  // selector's 500 ms; rates in percentage points, times in nanoseconds; each subscribe answered
  // with its JSON-RPC result.
  grvt: {
    host: "market-data.grvt.io",
    answer: (sent) => {
      const message = subscribeFrame(sent);
      const params = message?.params as { stream?: string; selectors?: string[] } | undefined;
      if (message?.method !== "subscribe" || !Array.isArray(params?.selectors)) return [];
      const subs = params.selectors;
      return [JSON.stringify({ jsonrpc: "2.0", result: { stream: params.stream, subs, unsubs: [], num_snapshots: subs.map(() => 1), first_sequence_number: subs.map(() => 1) }, id: message.id, method: "subscribe" })];
    },
    channels: [
      {
        everyMs: 500,
        all: false,
        rate: true,
        frame: ([r], now) => {
          const sequence = ++grvtSequence;
          return JSON.stringify({
            stream: "v1.ticker.s",
            selector: r!.id,
            sequence_number: s(sequence),
            feed: { event_time: nanoseconds(now), instrument: r!.id, mark_price: s(r!.mark), index_price: s(r!.mark), funding_rate: percentOf(r!.rate), next_funding_time: nanoseconds(r!.next) },
            prev_sequence_number: s(sequence - 1),
          });
        },
      },
    ],
  },
  // paradex/sbe-frames.ts: binary SBE MarketSummaryEvent frames (schema 1:1), one a market, the rate
  // in the 12-decimal `fundingRatePrecise` (and the 8-decimal `fundingRate`); `markets_summary.ALL` is
  // one subscription for every market. Paradex documents no push rate: each market once a second (a
  // choice, as Gate's).
  paradex: {
    host: "ws.api.prod.paradex.trade",
    coversAll: true,
    channels: [
      {
        everyMs: 1_000,
        all: false,
        rate: true,
        frame: ([r], now) => perpetualSummary(r!.id, { tsMicros: BigInt(now) * 1000n, mark: r!.mark, index: r!.mark, rate: r!.rate }),
      },
    ],
  },
};

/** A stamped rate change: when its frame was sent, and of which market. */
export interface Stamp {
  venue: VenueId;
  id: string;
  rate: number;
  sentAt: number;
}

interface Market extends Row {
  /** Rate changes so far (its sign alternates, so every change moves the spreads by tens of APR points). */
  changes: number;
  /** Price updates so far. */
  ticks: number;
}

/** A replayed venue's socket: what it subscribed to, and which market ids that names (asked per frame, so kept). */
interface Subscriber {
  socket: WebSocket;
  subscribed: string;
  names: Map<string, boolean>;
}

interface VenuePlay {
  venue: VenueId;
  spec: VenueSpec;
  markets: Market[];
  byId: Map<string, Market>;
  sockets: Set<Subscriber>;
  /** Rate changes owed (rateChangesPerSecond accrues; each rate-carrying row may take one). */
  owed: number;
  /** Rate changes allowed now (the baseline phase changes one venue only). */
  changing: boolean;
  sent: number;
  seq: number;
  /** GET /bench-state answers so far. */
  states: number;
}

export interface StreamPlayerOptions {
  /** Per replayed venue, the market ids its widened REST replay lists (the connectors' venueMarketIds). */
  markets: Partial<Record<VenueId, { id: string; rate: number; mark: number }[]>>;
  rateChangesPerSecond: number;
  /** Every channel's period times this (1: the venue's documented push rate). */
  pushScale: number;
  onStamp(stamp: Stamp): void;
  now?: () => number;
}

export interface StreamPlayer {
  url: string;
  /** Which venues change rates (all by default); the others keep playing frames with moving prices. */
  changing(venues: readonly VenueId[] | "all"): void;
  /** Frames sent, connections and state answers (GET /bench-state) per venue so far. */
  counts(): { venue: VenueId; frames: number; sockets: number; states: number }[];
  close(): Promise<void>;
}

/** Where the server's REST replay asks a venue's current state (freshness-venues.ts): `/bench-state/<venue>`. */
export const BENCH_STATE_PATH = "/bench-state/";

/**
 * What a venue's stream has told of each of these markets (by the player's id): every channel's
 * frame of them, decoded by the venue's own protocol, so the REST replay can answer the same state in
 * the stream's units (Lighter's percent and GRVT's, Paradex's SBE decimals come back as the rate).
 * Decoded here rather than in the server, so the server's own work per round stays a venue's.
 */
export function streamedState(venue: VenueId, rows: readonly Row[], now: number): Record<string, StreamFields> {
  const spec = VENUE_SPECS[venue];
  const protocol = STREAM_PROTOCOLS[venue];
  const state: Record<string, StreamFields> = {};
  if (!spec || !protocol) return state;
  for (const channel of spec.channels) {
    const frames = channel.all ? [channel.frame(rows, now)] : rows.map((row) => channel.frame([row], now));
    for (const frame of frames) {
      for (const event of protocol.decode(frame, now)) {
        if (event.kind !== "updates") continue;
        for (const update of event.updates) Object.assign((state[update.venueMarketId] ??= {}), update.fields);
      }
    }
  }
  return state;
}

/** `GET /bench-state/<venue>`: each market's state as its stream tells it now, for a venue the player plays. */
function stateAnswer(byVenue: ReadonlyMap<string, VenuePlay>, path: string, now: () => number): (() => Record<string, StreamFields>) | undefined {
  if (!path.startsWith(BENCH_STATE_PATH)) return undefined;
  const play = byVenue.get(path.slice(BENCH_STATE_PATH.length));
  if (!play) return undefined;
  return () => {
    play.states += 1;
    return streamedState(play.venue, play.markets, now());
  };
}

const TICK_MS = 20;
const EIGHT_HOURS = 28_800_000;

/**
 * Whether the socket subscribed to `id`, remembered until it subscribes again: searching its
 * subscribe frames (600 market ids, 11 KB) for each of the 37,000 frames a second at the venues'
 * push rates costs the replay about a third of a core, which the server would otherwise have.
 */
function subscribedTo(entry: Subscriber, id: string): boolean {
  let named = entry.names.get(id);
  if (named === undefined) entry.names.set(id, (named = names(entry.subscribed, id)));
  return named;
}

/** The token of a market id in a subscribe frame: not part of a longer id. */
function names(subscribed: string, id: string): boolean {
  let at = subscribed.indexOf(id);
  while (at >= 0) {
    const before = subscribed[at - 1];
    const after = subscribed[at + id.length];
    if (!/[A-Za-z0-9_]/.test(before ?? "") && !/[A-Za-z0-9_]/.test(after ?? "")) return true;
    at = subscribed.indexOf(id, at + 1);
  }
  return false;
}

export async function startStreamPlayer(options: StreamPlayerOptions): Promise<StreamPlayer> {
  const now = options.now ?? Date.now;
  const plays = new Map<string, VenuePlay>();
  for (const [venue, spec] of Object.entries(VENUE_SPECS) as [VenueId, VenueSpec][]) {
    const listed = options.markets[venue];
    if (!listed?.length) continue;
    const at = now();
    // The next settlement from the start: a subscription's snapshot (answered before any frame) states it too.
    const markets = listed.map((m) => ({ ...m, next: at - (at % EIGHT_HOURS) + EIGHT_HOURS, changes: 0, ticks: 0 }));
    plays.set(spec.host, { venue, spec, markets, byId: new Map(markets.map((m) => [m.id, m])), sockets: new Set(), owed: 0, changing: true, sent: 0, seq: 0, states: 0 });
  }
  // A replayed venue's REST (its path as the override writes it: `/<host><path>`, POST): its JSON answer.
  const rests = new Map<string, () => unknown>();
  for (const play of plays.values()) {
    if (!play.spec.rest) continue;
    const url = new URL(play.spec.rest.url);
    rests.set(`/${url.host}${url.pathname}`, play.spec.rest.answer);
  }
  const byVenue = new Map([...plays.values()].map((play) => [play.venue as string, play]));
  const http = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0]!;
    const answer = request.method === "POST" ? rests.get(path) : request.method === "GET" ? stateAnswer(byVenue, path, now) : undefined;
    request.resume();
    if (!answer) return response.writeHead(404).end();
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer()));
  });
  const server = new WebSocketServer({ server: http });
  await new Promise<void>((resolve, reject) => {
    http.once("listening", resolve);
    http.once("error", reject);
    http.listen(0, "127.0.0.1");
  });
  server.on("connection", (socket, request) => {
    const host = (request.url ?? "/").split("/")[1] ?? "";
    const play = plays.get(host);
    // A venue not replayed here: its stream is refused and the server polls it, as it would a venue down.
    if (!play) return socket.close(1013, "not replayed");
    const entry: Subscriber = { socket, subscribed: "", names: new Map() };
    play.sockets.add(entry);
    socket.on("message", (data) => {
      const sent = String(data);
      entry.subscribed += `\n${sent}`;
      entry.names.clear();
      for (const frame of play.spec.answer?.(sent, play.markets, now()) ?? []) socket.send(frame);
    });
    socket.on("close", () => play.sockets.delete(entry));
    socket.on("error", () => undefined);
  });
  const { port } = http.address() as AddressInfo;

  const update = (play: VenuePlay, market: Market, at: number, rateChannel: boolean) => {
    // A walk that returns every 7 updates (steps of -3…+3 × 1e-5): prices move in every frame, as
    // real ones do, but never drift 10 bps (news) from where they started.
    market.ticks += 1;
    market.mark = Number((market.mark * (1 + (((market.ticks % 7) - 3) * 1e-5))).toPrecision(10));
    market.next = at - (at % EIGHT_HOURS) + EIGHT_HOURS;
    if (!rateChannel || !play.changing || play.owed < 1) return;
    play.owed -= 1;
    market.changes += 1;
    play.seq += 1;
    // Unique per venue for a million changes; ±2.0e-4 or so per interval: 40+ APR points a flip.
    const size = 2e-4 + (play.seq % 1_000_000) * 1e-10;
    market.rate = Number((market.changes % 2 ? -size : size).toPrecision(12));
    pendingStamps.push({ venue: play.venue, id: market.id, rate: market.rate, sentAt: 0 });
  };
  let pendingStamps: Stamp[] = [];

  /** Sends to the sockets that subscribed (to `id`, for a per-market channel); answers how many. */
  const send = (play: VenuePlay, frame: string | Buffer, id: string | undefined) => {
    let sent = 0;
    for (const entry of play.sockets) {
      if (entry.socket.readyState !== entry.socket.OPEN || entry.subscribed === "") continue;
      if (id !== undefined && !play.spec.coversAll && !subscribedTo(entry, id)) continue;
      entry.socket.send(frame);
      sent += 1;
    }
    play.sent += sent;
    return sent;
  };

  const started = now();
  const cursors = new Map<Channel, number>();
  let last = started;
  const timer = setInterval(() => {
    const at = now();
    const elapsed = at - last;
    last = at;
    for (const play of plays.values()) {
      const heard = play.sockets.size > 0;
      if (heard) play.owed = Math.min(play.owed + (options.rateChangesPerSecond * elapsed) / 1000, options.rateChangesPerSecond);
      for (const channel of play.spec.channels) {
        const n = play.markets.length;
        const everyMs = channel.everyMs * options.pushScale;
        const due = channel.all ? Math.floor((at - started) / everyMs) : Math.floor(((at - started) * n) / everyMs);
        // While the venue has no socket its frames go by unheard, as a venue's do: a socket that
        // connects later hears the frames from then on, not all of those it missed at once (a
        // minute of GRVT's is 72,000 frames, which would bury the reconnecting thread).
        if (!heard) {
          cursors.set(channel, due);
          continue;
        }
        let done = cursors.get(channel) ?? due - 1;
        for (; done < due; done++) {
          pendingStamps = [];
          if (channel.all) {
            for (const market of play.markets) update(play, market, at, channel.rate);
            const frame = channel.frame(play.markets, at);
            const sentAt = now();
            if (send(play, frame, undefined) > 0) for (const stamp of pendingStamps) options.onStamp({ ...stamp, sentAt });
          } else {
            const market = play.markets[(done + 1) % n]!;
            update(play, market, at, channel.rate);
            const frame = channel.frame([market], at);
            const sentAt = now();
            if (send(play, frame, market.id) > 0) for (const stamp of pendingStamps) options.onStamp({ ...stamp, sentAt });
          }
        }
        cursors.set(channel, done);
      }
    }
  }, TICK_MS);

  return {
    url: `ws://127.0.0.1:${port}`,
    changing(venues) {
      for (const play of plays.values()) play.changing = venues === "all" || venues.includes(play.venue);
    },
    counts: () => [...plays.values()].map((p) => ({ venue: p.venue, frames: p.sent, sockets: p.sockets.size, states: p.states })),
    async close() {
      clearInterval(timer);
      for (const play of plays.values()) for (const entry of play.sockets) entry.socket.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
