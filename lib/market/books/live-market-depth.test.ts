import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { createReplayFetch, type ReplayReply } from "../venues/replay-fetch";
import { BOOK_PATHS, bybitSpotBookRoutes, venueBookRoutes } from "@/tests/support/market/book-replays";
import { FIXED_MARGIN, fixedBook } from "@/tests/support/market/fixed-depth";
import { ccxtSpotBookSource } from "./ccxt-spot-book-source";
import { ccxtDepthSource } from "./ccxt-depth-source";
import { liveMarketDepth } from "./live-market-depth";

const OKX_BTC = { exchange: "okx", market: "BTC/USDT:USDT" };

/** OKX answering from its recordings through ccxt, its book request answered `book` when given; a clock the test moves. */
function okxDepth(options: { book?: ReplayReply; deadlineMs?: number } = {}) {
  const clock = { now: Date.parse("2026-11-24T12:00:00Z") };
  const override = options.book ? [{ path: BOOK_PATHS.okx!.path, reply: options.book }] : [];
  const replay = createReplayFetch([...override, ...venueBookRoutes("okx")]);
  const depth = liveMarketDepth(
    { okx: ccxtDepthSource("okx", { fetchImplementation: replay.fetchImplementation, enableRateLimit: false }) },
    { deadlineMs: options.deadlineMs ?? 3_000, bookFreshMs: 2_000, now: () => clock.now },
  );
  const bookRequests = () => replay.requests.filter((r) => r.path === BOOK_PATHS.okx!.path).length;
  return { depth, clock, bookRequests, requests: replay.requests };
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe("liveMarketDepth", () => {
  it("answers 50 concurrent requests for a cold market with one book request to the venue", async () => {
    const { depth, bookRequests, requests } = okxDepth();
    const books = await Promise.all(Array.from({ length: 50 }, () => depth.orderBook(OKX_BTC)));
    expect(new Set(books).size).toBe(1);
    expect(bookRequests()).toBe(1);
    expect(requests.filter((r) => r.path === "/api/v5/public/instruments")).toHaveLength(1);
  });

  it("reuses a book for 2 s from its request, then asks the venue again", async () => {
    const { depth, clock, bookRequests } = okxDepth();
    const first = await depth.orderBook(OKX_BTC);
    clock.now += 1_999;
    expect(await depth.orderBook(OKX_BTC)).toBe(first);
    expect(bookRequests()).toBe(1);
    clock.now += 1;
    await depth.orderBook(OKX_BTC);
    expect(bookRequests()).toBe(2);
  });

  it("answers 503 VENUE_UNAVAILABLE, naming the venue and market, when the venue does not answer in time", async () => {
    const { depth } = okxDepth({ book: { hang: true }, deadlineMs: 150 });
    const started = performance.now();
    const error = await refusal(depth.orderBook(OKX_BTC));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(error.code).toBe("VENUE_UNAVAILABLE");
    expect(error.status).toBe(503);
    expect(error.message).toBe("okx did not send the order book of BTC/USDT:USDT within 150 ms");
  });

  it("answers 503 for a venue error, naming the error's kind but not the venue's URL or payload", async () => {
    const { depth } = okxDepth({ book: { status: 500, body: { code: "50001", msg: "Service temporarily unavailable" } } });
    const error = await refusal(depth.orderBook(OKX_BTC));
    expect(error.code).toBe("VENUE_UNAVAILABLE");
    expect(error.message).toMatch(/^okx answered the order-book request for BTC\/USDT:USDT with an error \(\w+\)$/);
    expect(error.message).not.toContain("http");
  });

  it("answers 503 for a venue without a depth source, whatever kind of venue it is", async () => {
    const { depth } = okxDepth();
    const error = await refusal(depth.orderBook({ exchange: "bitmex", market: "BTC/USDT:USDT" }));
    expect(error.code).toBe("VENUE_UNAVAILABLE");
    expect(error.message).toContain("No order-book source is set up for bitmex");
  });

  it("costs a leg only its liquidation price when its tiers cannot be read", async () => {
    const { depth } = okxDepth();
    // No recording of OKX's position tiers: the replay answers 404.
    expect(await depth.marginTable(OKX_BTC)).toMatchObject({ available: false, reason: "venue_unavailable" });
    expect(await depth.marginTable({ exchange: "bitmex", market: "X" })).toMatchObject({ available: false, reason: "venue_unavailable" });
  });
});

describe("liveMarketDepth: spot books", () => {
  const BYBIT_SPOT = { exchange: "bybit", market: "BTC/USDT" };

  /** Bybit answering its recorded spot book through ccxt (the spot book request answered `book` when given), on a clock the test moves. */
  function bybitSpotDepth(options: { book?: ReplayReply; deadlineMs?: number } = {}) {
    const clock = { now: Date.parse("2026-11-24T12:00:00Z") };
    const override = options.book ? [{ path: "/v5/market/orderbook", query: { category: "spot" }, reply: options.book }] : [];
    const replay = createReplayFetch([...override, ...bybitSpotBookRoutes()]);
    const spotBook = ccxtSpotBookSource("bybit", { fetchImplementation: replay.fetchImplementation, enableRateLimit: false });
    // The perpetual's book of the same venue is a fixed one, to tell the two apart.
    const perp = fixedBook(1);
    const depth = liveMarketDepth(
      { bybit: { book: async () => perp, margin: async () => FIXED_MARGIN, spotBook } },
      { deadlineMs: options.deadlineMs ?? 3_000, bookFreshMs: 2_000, now: () => clock.now },
    );
    const bookRequests = () => replay.requests.filter((r) => r.path === "/v5/market/orderbook").length;
    return { depth, clock, bookRequests, perp };
  }

  it("reads a fresh spot book, reuses it for 2 s from its request, then asks the venue again", async () => {
    const { depth, clock, bookRequests } = bybitSpotDepth();
    const books = await Promise.all(Array.from({ length: 10 }, () => depth.spotOrderBook(BYBIT_SPOT)));
    expect(new Set(books).size).toBe(1);
    expect(books[0]).toMatchObject({ timestamp: 1709891679000, source: "venue", contractSize: 1 });
    expect(bookRequests()).toBe(1);
    clock.now += 1_999;
    expect(await depth.spotOrderBook(BYBIT_SPOT)).toBe(books[0]);
    clock.now += 1;
    await depth.spotOrderBook(BYBIT_SPOT);
    expect(bookRequests()).toBe(2);
  });

  it("never serves a venue's perpetual book for its spot market of the same symbol, or the reverse", async () => {
    const { depth, perp } = bybitSpotDepth();
    // Asked under one symbol, the perpetual's book and the spot book are each their own.
    const spot = await depth.spotOrderBook(BYBIT_SPOT);
    expect(await depth.orderBook(BYBIT_SPOT)).toBe(perp);
    expect(await depth.spotOrderBook(BYBIT_SPOT)).toBe(spot);
    expect(spot).not.toBe(perp);
  });

  it("answers 503 naming the venue and the spot market when the spot book misses the deadline", async () => {
    const { depth } = bybitSpotDepth({ book: { hang: true }, deadlineMs: 150 });
    const error = await refusal(depth.spotOrderBook(BYBIT_SPOT));
    expect(error.status).toBe(503);
    expect(error.code).toBe("VENUE_UNAVAILABLE");
    expect(error.message).toBe("bybit did not send the spot order book of BTC/USDT within 150 ms");
  });

  it("answers 503 for a venue error, and for a venue whose spot books are not read", async () => {
    const { depth } = bybitSpotDepth({ book: { status: 500, body: { retCode: 10016, retMsg: "Server error" } } });
    expect((await refusal(depth.spotOrderBook(BYBIT_SPOT))).message).toMatch(/^bybit answered the spot order-book request for BTC\/USDT with an error \(\w+\)$/);
    const error = await refusal(depth.spotOrderBook({ exchange: "hyperliquid", market: "BTC/USDC" }));
    expect(error.code).toBe("VENUE_UNAVAILABLE");
    expect(error.message).toContain("No spot order-book source is set up for hyperliquid");
  });
});
