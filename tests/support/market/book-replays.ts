import { ccxtDepthSource } from "@/lib/market/books/ccxt-depth-source";
import type { VenueDepthSources } from "@/lib/market/books/market-depth";
import { createReplayFetch, type ReplayReply, type ReplayRoute } from "@/lib/market/venues/replay-fetch";
import { fixtureText } from "@/tests/fixtures/venues/read-fixture";
import { VENUE_REPLAYS } from "@/tests/fixtures/venues/venue-replay-table";
import { CCXT_VENUE_IDS, type CcxtVenueId } from "@/lib/market/venues/connectors/venue-adapter";
import type { VenueId } from "@/lib/market/model/types";

/**
 * Each venue's recorded BTC order book (tests/fixtures/venues, sources in its SOURCES.md) as its API
 * sent it, at the path and query ccxt's fetchOrderBook asks for, beside the venue's market list
 * (VENUE_REPLAYS) that ccxt loads first. Bitget is left out: its recording is of the retired v1
 * depth endpoint, and ccxt asks v2's merge-depth.
 */
export const BOOK_REPLAYS: Readonly<Partial<Record<VenueId, () => ReplayRoute[]>>> = {
  binance: () => [{ path: "/fapi/v1/depth", query: { symbol: "BTCUSDT" }, reply: { body: fixtureText("binance/depth_BTCUSDT_2022-06-03_excerpt3.json") } }],
  bybit: () => [
    {
      path: "/v5/market/orderbook",
      query: { category: "linear", symbol: "BTCUSDT" },
      reply: { body: fixtureText("bybit/orderbook_linear_BTCUSDT_2024-04-01_limit5.json") },
    },
  ],
  okx: () => [{ path: "/api/v5/market/books", query: { instId: "BTC-USDT-SWAP" }, reply: { body: fixtureText("okx/books_SWAP_BTC-USDT-SWAP_2022-06-04_excerpt3.json") } }],
  gate: () => [
    {
      path: "/api/v4/futures/usdt/order_book",
      query: { contract: "BTC_USDT" },
      reply: { body: fixtureText("gate/futures_usdt_order_book_BTC_USDT_2022-06-03_excerpt5.json") },
    },
  ],
  hyperliquid: () => [
    { method: "POST", path: "/info", body: { type: "l2Book", coin: "BTC" }, reply: { body: fixtureText("hyperliquid/l2Book_BTC_2025-10-30_top5_no-n.json") } },
  ],
};

/** A venue's market list and its recorded BTC book, as one replay. */
export function venueBookRoutes(venue: VenueId): ReplayRoute[] {
  return [...(BOOK_REPLAYS[venue]?.() ?? []), ...VENUE_REPLAYS[venue]()];
}

/** The path a venue's book requests go to, to count them among a replay's requests. */
export const BOOK_PATHS: Readonly<Partial<Record<VenueId, { method: string; path: string; body?: Record<string, unknown> }>>> = {
  binance: { method: "GET", path: "/fapi/v1/depth" },
  bybit: { method: "GET", path: "/v5/market/orderbook" },
  okx: { method: "GET", path: "/api/v5/market/books" },
  bitget: { method: "GET", path: "/api/v2/mix/market/merge-depth" },
  gate: { method: "GET", path: "/api/v4/futures/usdt/order_book" },
  hyperliquid: { method: "POST", path: "/info", body: { type: "l2Book" } },
};

/**
 * Depth sources of the venues through ccxt, each answering from its market list and recorded BTC
 * book; a venue in `broken` answers its book requests with the given reply (a hang, an error).
 * `bookRequests(venue)` counts the book requests each venue received.
 */
export function replayedDepthSources(broken: Partial<Record<VenueId, ReplayReply>> = {}, venues: readonly CcxtVenueId[] = CCXT_VENUE_IDS) {
  const replays = new Map(
    venues.map((venue) => {
      const failure = broken[venue];
      const bookPath = BOOK_PATHS[venue];
      const override: ReplayRoute[] = failure && bookPath ? [{ method: bookPath.method as "GET" | "POST", path: bookPath.path, body: bookPath.body, reply: failure }] : [];
      return [venue, createReplayFetch([...override, ...venueBookRoutes(venue)])] as const;
    }),
  );
  const sources: VenueDepthSources = Object.fromEntries(
    [...replays].map(([venue, replay]) => [venue, ccxtDepthSource(venue, { fetchImplementation: replay.fetchImplementation, enableRateLimit: false })]),
  );
  const bookRequests = (venue: CcxtVenueId) => {
    const target = BOOK_PATHS[venue];
    return (replays.get(venue)?.requests ?? []).filter(
      (r) => target && r.method === target.method && r.path === target.path && Object.entries(target.body ?? {}).every(([k, v]) => (r.body as Record<string, unknown> | undefined)?.[k] === v),
    ).length;
  };
  return { sources, bookRequests };
}

/**
 * Bybit's spot market list (BTCUSDT, ETHUSDT) and its BTCUSDT spot book as recorded
 * (tests/fixtures/carry/SOURCES.md), at the paths ccxt's spot-only client asks for them.
 */
export function bybitSpotBookRoutes(): ReplayRoute[] {
  return [
    { path: "/v5/market/instruments-info", query: { category: "spot" }, reply: { body: fixtureText("../carry/bybit/instruments-info_spot_BTC-ETH_nautilus.json") } },
    { path: "/v5/market/orderbook", query: { category: "spot", symbol: "BTCUSDT" }, reply: { body: fixtureText("bybit/orderbook_spot_BTCUSDT_nautilus-test-data.json") } },
  ];
}

/**
 * OKX's spot market list (BTC-USD and four more USD pairs) and a spot book served for BTC-USD, as
 * recorded (tests/fixtures/carry/SOURCES.md), at the paths ccxt's spot-only client asks for them.
 */
export function okxSpotBookRoutes(): ReplayRoute[] {
  return [
    { path: "/api/v5/public/instruments", query: { instType: "SPOT" }, reply: { body: fixtureText("../carry/okx/instruments_SPOT_USD_nautilus.json") } },
    { path: "/api/v5/market/books", query: { instId: "BTC-USD" }, reply: { body: fixtureText("../carry/okx/books_SPOT_nautilus-test-data.json") } },
  ];
}

/**
 * KuCoin's spot market list (BTC-USDT, ETH-USDT) and its BTC-USDT spot book as recorded
 * (tests/fixtures/carry/SOURCES.md), at the paths ccxt's spot-only client asks for them.
 */
export function kucoinSpotBookRoutes(): ReplayRoute[] {
  return [
    { path: "/api/v2/symbols", reply: { body: fixtureText("../carry/kucoin/symbols_BTC-ETH-USDT_DOC.json") } },
    {
      path: "/api/v1/market/orderbook/level2_100",
      query: { symbol: "BTC-USDT" },
      reply: { body: fixtureText("../carry/kucoin/market_orderbook_level2_BTC-USDT_2024-03-08_ccxt-static.json") },
    },
  ];
}

/**
 * Bitget's spot market list (BTCUSDT) and the margin list ccxt loads beside it, and its BTCUSDT
 * spot book as recorded (tests/fixtures/carry/SOURCES.md), at the paths ccxt's spot-only client asks.
 */
export function bitgetSpotBookRoutes(): ReplayRoute[] {
  return [
    { path: "/api/v2/spot/public/symbols", reply: { body: fixtureText("../carry/bitget/spot_public_symbols_BTCUSDT_DOC.json") } },
    { path: "/api/v2/margin/currencies", reply: { body: fixtureText("../carry/bitget/margin_currencies_ETHUSDT_DOC.json") } },
    {
      path: "/api/v2/spot/market/orderbook",
      query: { symbol: "BTCUSDT" },
      reply: { body: fixtureText("../carry/bitget/spot_market_orderbook_BTCUSDT_2024-02-01_ccxt-static.json") },
    },
  ];
}
