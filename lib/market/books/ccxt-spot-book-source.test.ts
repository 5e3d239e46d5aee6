import { describe, expect, it } from "vitest";
import { createReplayFetch, type ReplayRoute } from "../venues/replay-fetch";
import { bitgetSpotBookRoutes, bybitSpotBookRoutes, kucoinSpotBookRoutes, okxSpotBookRoutes } from "@/tests/support/market/book-replays";
import { ccxtSpotBookSource } from "./ccxt-spot-book-source";

function replayedBybit(extra: ReplayRoute[] = []) {
  const replay = createReplayFetch([...extra, ...bybitSpotBookRoutes()]);
  const book = ccxtSpotBookSource("bybit", { fetchImplementation: replay.fetchImplementation, enableRateLimit: false });
  if (!book) throw new Error("bybit has spot books");
  return { book, requests: replay.requests };
}

describe("ccxtSpotBookSource", () => {
  it("reads Bybit's spot book of BTC/USDT in the coin, asking the spot category only", async () => {
    const { book, requests } = replayedBybit();
    const read = await book("BTC/USDT");
    // The recording: bids 27,450.50 × 1.5, 27,450 × 2, 27,449.50 × 0.75; asks from 27,451 × 1.2; ts 1709891679000.
    expect(read).toEqual({
      bids: [
        [27450.5, 1.5],
        [27450, 2],
        [27449.5, 0.75],
      ],
      asks: [
        [27451, 1.2],
        [27451.5, 3],
        [27452, 0.5],
      ],
      contractSize: 1,
      timestamp: 1709891679000,
      source: "venue",
    });
    const categories = requests.map((r) => r.query.category);
    expect(categories).toContain("spot");
    expect(categories).not.toContain("linear");
    expect(requests.find((r) => r.path === "/v5/market/orderbook")?.query).toMatchObject({ category: "spot", symbol: "BTCUSDT", limit: "50" });
  });

  it("reads OKX's spot book in the coin, where its perpetuals count contracts", async () => {
    const replay = createReplayFetch(okxSpotBookRoutes());
    const book = ccxtSpotBookSource("okx", { fetchImplementation: replay.fetchImplementation, enableRateLimit: false });
    const read = await book!("BTC/USD");
    // The recording: best bid 41,006.7 × 0.487921 BTC, best ask 41,006.8 × 0.60038921 BTC, ts 2024-01-01T00:00:00Z.
    expect(read).toMatchObject({ contractSize: 1, timestamp: 1704067200000 });
    expect(read.bids[0]).toEqual([41006.7, 0.487921]);
    expect(read.asks[0]).toEqual([41006.8, 0.60038921]);
    expect(replay.requests.map((r) => r.query.instType).filter(Boolean)).toEqual(["SPOT"]);
    expect(replay.requests.find((r) => r.path === "/api/v5/market/books")?.query).toMatchObject({ instId: "BTC-USD", sz: "50" });
  });

  // Recorded by ccxt's developers (tests/fixtures/carry/SOURCES.md), two levels a side as ccxt kept them.
  it.each([
    {
      venue: "kucoinfutures" as const,
      routes: kucoinSpotBookRoutes,
      // KuCoin's spot class, asked 100 levels (its 20 or 100); 2024-03-08T11:48:28.055Z.
      paths: ["/api/v2/symbols", "/api/v1/market/orderbook/level2_100"],
      bids: [[67539.7, 1.1829567], [67538.5, 0.25229199]],
      asks: [[67539.8, 1.08883964], [67539.9, 0.0001]],
      timestamp: 1709898508055,
    },
    {
      venue: "bitget" as const,
      routes: bitgetSpotBookRoutes,
      // The margin list is loaded beside the spot list; the book's own `ts`, 2024-02-01T16:14:54.602Z.
      paths: ["/api/v2/margin/currencies", "/api/v2/spot/public/symbols", "/api/v2/spot/market/orderbook"],
      bids: [[42604.36, 0.616], [42604.3, 0.44]],
      asks: [[42604.37, 0.601], [42608.51, 0.0127]],
      timestamp: 1706804094602,
    },
  ])("reads $venue's recorded BTC/USDT spot book in the coin, behind its spot market list", async ({ venue, routes, paths, bids, asks, timestamp }) => {
    const replay = createReplayFetch(routes());
    const book = ccxtSpotBookSource(venue, { fetchImplementation: replay.fetchImplementation, enableRateLimit: false });
    expect(await book!("BTC/USDT")).toEqual({ bids, asks, contractSize: 1, timestamp, source: "venue" });
    expect(replay.requests.map((r) => r.path).sort()).toEqual([...paths].sort());
  });

  it("loads the spot market list once for many books", async () => {
    const { book, requests } = replayedBybit();
    await Promise.all([book("BTC/USDT"), book("BTC/USDT")]);
    expect(requests.filter((r) => r.path === "/v5/market/instruments-info")).toHaveLength(1);
    expect(requests.filter((r) => r.path === "/v5/market/orderbook")).toHaveLength(2);
  });

  it("rejects a spot symbol the venue does not list, and a perpetual's symbol", async () => {
    const { book } = replayedBybit();
    await expect(book("DOGE/USDT")).rejects.toThrow();
    await expect(book("BTC/USDT:USDT")).rejects.toThrow();
  });

  it("names KuCoin's spot class under its perpetuals' venue id, and none for a venue without spot books read", () => {
    expect(ccxtSpotBookSource("kucoinfutures")).toBeTypeOf("function");
    expect(ccxtSpotBookSource("hyperliquid")).toBeUndefined();
  });
});
