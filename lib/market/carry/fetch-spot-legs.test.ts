import { describe, expect, it } from "vitest";
import { createReplayFetch, type ReplayRoute } from "@/lib/market/venues/replay-fetch";
import { allSpotRoutes, SPOT_REPLAYS } from "@/tests/fixtures/carry/spot-replay-table";
import { fetchSpotLegs, type SpotVenueResult } from "./fetch-spot-legs";

const NOW = Date.parse("2026-12-04T12:00:00Z");
const KEY = { key: "read-only-key", secret: "read-only-secret" };
const KEYS = { binance: KEY, bybit: KEY, gate: KEY };

function byVenue(results: SpotVenueResult[]) {
  return Object.fromEntries(results.map((result) => [result.venue, result]));
}

function okLegs(result: SpotVenueResult | undefined) {
  if (result?.status !== "ok") throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  return result.legs;
}

describe("fetchSpotLegs on replayed answers", () => {
  it("reads every venue's spot legs, and the borrow rates of the public endpoints and of the signed ones with a key", async () => {
    const replay = createReplayFetch(allSpotRoutes());
    const results = byVenue(await fetchSpotLegs({ fetchImplementation: replay.fetchImplementation, timeoutMs: 2_000, now: () => NOW, credentials: KEYS }));

    const okx = okLegs(results.okx);
    expect(okx).toHaveLength(1);
    expect(okx[0]).toMatchObject({ exchange: "okx", market: "BTC/USDT", price: 16839.1, borrow: { asset: "BTC", rate: 0.00019992, period: "day", borrowable: 10 } });
    // Gate's estimate names BTC and GT; its one recorded spot market is BTC3L, which borrows nothing.
    expect(okLegs(results.gate)[0]).toMatchObject({ market: "BTC3L/USDT", borrow: null });
    // Binance's recorded spot market is BNB/BTC: its cross-margin answer is for BTC, so BNB has no rate.
    expect(okLegs(results.binance)[0]).toMatchObject({ market: "BNB/BTC", borrow: null });
    expect(okLegs(results.kucoin)[0]).toMatchObject({ exchange: "kucoinfutures", market: "BTC/USDT", borrow: null });
    // Bybit asked BTC's rate, signed; the recorded answer is USDC's, so BTC has none.
    expect(okLegs(results.bybit)[0]).toMatchObject({ market: "BTC/USDT", borrow: null });
    const bybitBorrow = replay.requests.find((r) => r.path === "/v5/spot-margin-trade/interest-rate-history");
    expect(bybitBorrow?.query).toEqual({ currency: "BTC" });
    // Bitget's public margin-loans answer names no coin: its daily rate is read for BTC, the coin asked.
    expect(okLegs(results.bitget)[0]).toMatchObject({ exchange: "bitget", market: "BTC/USDT", price: 85768.48, borrow: { asset: "BTC", rate: 0.00100008, period: "day", borrowable: null } });
    expect(replay.requests.find((r) => r.path === "/api/v3/market/margin-loans")?.query).toEqual({ coin: "BTC" });
  });

  it("signs Binance's borrow request with a timestamp and signature, and sends the key in its header", async () => {
    const seen: { url: string; headers: Record<string, string> | undefined }[] = [];
    const replay = createReplayFetch(SPOT_REPLAYS.binance());
    await fetchSpotLegs({
      venues: ["binance"],
      timeoutMs: 2_000,
      now: () => NOW,
      credentials: KEYS,
      fetchImplementation: (url, init) => {
        seen.push({ url, headers: init.headers });
        return replay.fetchImplementation(url, init);
      },
    });
    const signed = seen.find((request) => request.url.includes("crossMarginData"));
    expect(signed?.headers?.["X-MBX-APIKEY"]).toBe("read-only-key");
    expect(new URL(signed?.url ?? "http://x").searchParams.get("timestamp")).toBe(String(NOW));
    expect(new URL(signed?.url ?? "http://x").searchParams.get("signature")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("asks no signed endpoint without the venue's key, and leaves its legs without a borrow rate", async () => {
    const replay = createReplayFetch(allSpotRoutes());
    const results = byVenue(await fetchSpotLegs({ venues: ["binance", "bybit", "gate", "okx"], fetchImplementation: replay.fetchImplementation, timeoutMs: 2_000, now: () => NOW }));
    expect(replay.requests.map((r) => r.path).sort()).toEqual(["/api/v3/ticker/24hr", "/api/v4/spot/tickers", "/api/v5/market/tickers", "/api/v5/public/interest-rate-loan-quota", "/v5/market/tickers"]);
    for (const venue of ["binance", "bybit", "gate"]) expect(results[venue]).toMatchObject({ status: "ok", borrowRead: false });
    expect(results.okx).toMatchObject({ status: "ok", borrowRead: true });
  });

  it("marks a venue stale alone when it fails, hangs past the deadline or answers garbage", async () => {
    const routes: ReplayRoute[] = [
      ...SPOT_REPLAYS.okx(),
      ...SPOT_REPLAYS.kucoin(),
      { path: "/api/v4/spot/tickers", reply: { status: 500, body: "oops" } },
      { path: "/api/v3/ticker/24hr", reply: { hang: true } },
      { path: "/v5/market/tickers", reply: { body: { retCode: 0, result: { category: "linear", list: [] } } } },
    ];
    const replay = createReplayFetch(routes);
    const started = Date.now();
    const results = byVenue(
      await fetchSpotLegs({ venues: ["okx", "kucoin", "gate", "binance", "bybit"], fetchImplementation: replay.fetchImplementation, timeoutMs: 300, now: () => NOW }),
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(okLegs(results.okx)).toHaveLength(1);
    expect(okLegs(results.kucoin).length).toBeGreaterThan(0);
    expect(results.gate).toMatchObject({ status: "stale", error: expect.stringMatching(/HTTP 500/) });
    expect(results.binance).toMatchObject({ status: "stale", error: expect.stringMatching(/timed out|no answer within 300 ms/) });
    expect(results.bybit).toMatchObject({ status: "stale", error: expect.stringMatching(/bybit spot tickers: unexpected answer/) });
  });

  it("marks a venue stale whole when its borrow answer is malformed, rather than listing legs without it", async () => {
    const routes: ReplayRoute[] = [SPOT_REPLAYS.okx()[0]!, { path: "/api/v5/public/interest-rate-loan-quota", reply: { body: { code: "0", data: [{ basic: "none" }] } } }];
    const [okx] = await fetchSpotLegs({ venues: ["okx"], fetchImplementation: createReplayFetch(routes).fetchImplementation, timeoutMs: 1_000, now: () => NOW });
    expect(okx).toMatchObject({ status: "stale", venue: "okx", error: expect.stringMatching(/okx-interest-rate-loan-quota: unexpected answer/) });
  });
});
