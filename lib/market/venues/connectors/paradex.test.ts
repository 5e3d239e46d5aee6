import { describe, expect, it } from "vitest";
import type { ReplayRoute } from "../replay-fetch";
import { fixtureText } from "@/tests/fixtures/venues/read-fixture";
import { PARADEX_SUMMARY_CREATED_AT, paradexMarkets, paradexRoutes, paradexSummary } from "@/tests/fixtures/venues/replays/paradex";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";

type Row = Record<string, unknown>;

function routes(markets: unknown, summary: unknown): ReplayRoute[] {
  return [
    { path: "/v1/markets", reply: { body: markets } },
    { path: "/v1/markets/summary", query: { market: "ALL" }, reply: { body: summary } },
  ];
}

// The BTC-USD-PERP rows are REAL TESTNET answers (ccxt's static recording, 2024): real shape, testnet
// numbers. Their `funding_period_hours: 8` is the DOCUMENTED field the 2024 row predates; ETH-USD-PERP
// is SYNTHETIC; the perpetual option is the DOCUMENTED EXAMPLE ccxt's source quotes (replays/paradex.ts).
describe("paradex connector", () => {
  it("reads the rate per the market's own funding period, its bound, prices, open interest and volume", async () => {
    const { result, requests } = await replayVenue("paradex", paradexRoutes(), { now: () => Date.UTC(2024, 5, 14, 15, 13) });
    const bySymbol = snapshotsBySymbol(result);
    expect([...bySymbol.keys()]).toEqual(["BTC/USDC:USDC", "ETH/USDC:USDC"]);
    expect(bySymbol.get("BTC/USDC:USDC")).toEqual({
      exchange: "paradex",
      // Quoted in USD, settled in USDC: spelt USDC so it pairs with the other USDC perpetuals.
      market: "BTC/USDC:USDC",
      venueMarketId: "BTC-USD-PERP",
      base: "BTC",
      venueBase: "BTC",
      contractMultiplier: 1,
      quote: "USDC",
      settle: "USDC",
      // The testnet's rate for the whole 8h period, as sent.
      fundingRate: 0.00749938923192,
      predictedFundingRate: null,
      // `max_funding_rate`, per period, both ways.
      rateCap: 0.02,
      rateFloor: -0.02,
      fundingIntervalHours: 8,
      fundingIntervalSource: "venue",
      // Funding accrues continuously: no settlement time.
      nextFundingAt: null,
      markPrice: 67307.7225876,
      indexPrice: 66806.71304318,
      openInterestUsd: 152.777 * 67307.7225876,
      volume24hUsd: 2611476.262600002,
      // Paradex's published default (Retail) taker fee; ccxt's default is 0.03 %.
      takerFee: 0,
      observedAt: PARADEX_SUMMARY_CREATED_AT,
    });
    // The perpetual option is listed and summarised but funds nothing comparable.
    expect(result.status === "ok" && result.excluded).toMatchObject({ notLinearPerp: 1, unlisted: 0, invalid: 0 });
    expect(requests.map((request) => `${request.path} ${JSON.stringify(request.query)}`)).toEqual([
      "/v1/markets {}",
      '/v1/markets/summary {"market":"ALL"}',
    ]);
  });

  it("reads any stated period, and none from a market list that states none (the unaltered testnet row)", async () => {
    const markets = paradexMarkets() as { results: Row[] };
    const oneHour = { results: markets.results.map((row) => (row.symbol === "ETH-USD-PERP" ? { ...row, funding_period_hours: 1 } : row)) };
    const stated = snapshotsBySymbol((await replayVenue("paradex", routes(oneHour, paradexSummary()))).result);
    expect(stated.get("ETH/USDC:USDC")).toMatchObject({ fundingRate: -0.0000812, fundingIntervalHours: 1, fundingIntervalSource: "venue" });

    const unaltered = fixtureText("paradex/markets_BTC_2024-07_testnet.json");
    const bySymbol = snapshotsBySymbol((await replayVenue("paradex", routes(unaltered, paradexSummary()))).result);
    expect(bySymbol.get("BTC/USDC:USDC")).toMatchObject({
      fundingRate: 0.00749938923192,
      fundingIntervalHours: null,
      fundingIntervalSource: null,
    });
  });

  it("a garbled bound or price costs that field; a garbled rate costs the market", async () => {
    const markets = paradexMarkets() as { results: Row[] };
    const summary = paradexSummary() as { results: Row[] };
    const badBound = { results: markets.results.map((row) => (row.symbol === "BTC-USD-PERP" ? { ...row, max_funding_rate: "?" } : row)) };
    const badRows = {
      results: summary.results.map((row) => {
        if (row.symbol === "BTC-USD-PERP") return { ...row, volume_24h: "many" };
        if (row.symbol === "ETH-USD-PERP") return { ...row, funding_rate: "soon" };
        return row;
      }),
    };
    const { result } = await replayVenue("paradex", routes(badBound, badRows));
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("BTC/USDC:USDC")).toMatchObject({ fundingRate: 0.00749938923192, rateCap: null, rateFloor: null, volume24hUsd: null });
    expect(bySymbol.has("ETH/USDC:USDC")).toBe(false);
    expect(result.status === "ok" && result.excluded.invalid).toBe(1);
  });
});
