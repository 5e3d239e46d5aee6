import { describe, expect, it } from "vitest";
import type { ReplayRoute } from "../replay-fetch";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import { GRVT_TIME, grvtRoutes } from "@/tests/fixtures/venues/replays/grvt";
import { nanosecondsToMs } from "./grvt";

const ticker = (instrument: string, reply: ReplayRoute["reply"]): ReplayRoute => ({
  method: "POST",
  path: "/full/v1/ticker",
  body: { instrument },
  reply,
});

// REAL: the all_instruments rows (AAVE, BTC, ADA, ETH, SUI). DOCUMENTED EXAMPLE: the BTC ticker
// (ccxt's grvt.js fetchTicker comment). SYNTHETIC: the other tickers.
describe("grvt connector", () => {
  it("reads percent rates and bounds, nanosecond times, and the stated interval", async () => {
    const { result, requests } = await replayVenue("grvt", grvtRoutes());
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("BTC/USDT:USDT")).toEqual({
      exchange: "grvt",
      market: "BTC/USDT:USDT",
      venueMarketId: "BTC_USDT_Perp",
      base: "BTC",
      venueBase: "BTC",
      contractMultiplier: 1,
      quote: "USDT",
      settle: "USDT",
      // funding_rate "0.0037" is in percentage points: 0.0037 % per 8h.
      fundingRate: 0.000037,
      predictedFundingRate: null,
      // adjusted_funding_rate_cap/floor "0.3"/"-0.3": ±0.3 %.
      rateCap: 0.003,
      rateFloor: -0.003,
      fundingIntervalHours: 8,
      fundingIntervalSource: "venue",
      // next_funding_time "1764777600000000000" ns: 2025-12-03 16:00Z.
      nextFundingAt: Date.UTC(2025, 11, 3, 16),
      markPrice: 92697.300078773,
      indexPrice: 92727.818122278,
      openInterestUsd: 1523.218935908 * 92697.300078773,
      // Taker buys plus taker sells, in USDT.
      volume24hUsd: 266955739.1606 + 268170211.7109,
      // GRVT's published Level 1 futures taker fee (ccxt states none).
      takerFee: 0.0005,
      // event_time "1764774730025055205" ns.
      observedAt: GRVT_TIME,
    });
    expect(bySymbol.get("ETH/USDT:USDT")).toMatchObject({ fundingRate: -0.000021, rateCap: 0.003 });
    // "0.75" on the REAL AAVE and SUI rows: ±0.75 %.
    expect(bySymbol.get("AAVE/USDT:USDT")).toMatchObject({ fundingRate: 0.000046, rateCap: 0.0075, rateFloor: -0.0075 });
    expect(bySymbol.get("SUI/USDT:USDT")).toMatchObject({ fundingIntervalHours: 8, fundingIntervalSource: "venue" });
    expect(result.status === "ok" && result.excluded).toEqual({ notLinearPerp: 0, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 });
    // Active instruments only, then one ticker per perpetual: GRVT has no all-instrument ticker.
    expect(requests.map((request) => [request.path, request.body])).toEqual([
      ["/full/v1/all_instruments", { is_active: true }],
      ...["AAVE_USDT_Perp", "BTC_USDT_Perp", "ADA_USDT_Perp", "ETH_USDT_Perp", "SUI_USDT_Perp"].map((instrument) => [
        "/full/v1/ticker",
        { instrument },
      ]),
    ]);
  });

  it("costs a market its rate, not the venue, when its ticker fails or answers for another instrument", async () => {
    const { result } = await replayVenue("grvt", [
      ticker("AAVE_USDT_Perp", { status: 500, body: { code: 1002, message: "Internal Server Error", status: 500 } }),
      ticker("ADA_USDT_Perp", { body: { result: { instrument: "BTC_USDT_Perp", funding_rate: "0.0037" } } }),
      ...grvtRoutes(),
    ]);
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("AAVE/USDT:USDT")).toMatchObject({ fundingRate: null, markPrice: null, fundingIntervalHours: null });
    expect(bySymbol.get("ADA/USDT:USDT")).toMatchObject({ fundingRate: null });
    expect(bySymbol.get("BTC/USDT:USDT")?.fundingRate).toBe(0.000037);
    expect(result.status === "ok" && result.excluded.noFundingRow).toBe(2);
    expect(result.status === "ok" && result.warnings).toEqual([expect.stringMatching(/^ticker: 2 of 5 failed \(AAVE_USDT_Perp, ADA_USDT_Perp\): /)]);
  });

  it("drops a row whose next settlement is garbled", async () => {
    const { result } = await replayVenue("grvt", [
      ticker("ETH_USDT_Perp", { body: { result: { instrument: "ETH_USDT_Perp", funding_rate: "-0.0021", next_funding_time: "soon" } } }),
      ...grvtRoutes(),
    ]);
    expect(snapshotsBySymbol(result).has("ETH/USDT:USDT")).toBe(false);
    expect(result.status === "ok" && result.excluded.invalid).toBe(1);
  });

  it("reads nanosecond timestamps without losing the milliseconds", () => {
    expect(nanosecondsToMs("1764777600000000000")).toBe(1764777600000);
    expect(nanosecondsToMs("1764774730025055205")).toBe(1764774730025);
    expect(nanosecondsToMs(1764777600000000000)).toBe(1764777600000);
    expect(nanosecondsToMs(undefined)).toBeUndefined();
    expect(nanosecondsToMs("")).toBeUndefined();
    expect(nanosecondsToMs("soon")).toBeNaN();
    expect(nanosecondsToMs("-1")).toBeNaN();
  });
});
