import { describe, expect, it } from "vitest";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import { fixtureJson } from "@/tests/fixtures/venues/read-fixture";
import { HTX_DOCUMENTED_CURRENT_FUNDING, HTX_FUNDING_TIME, HTX_FUNDING_TS, HTX_HOURLY_FUNDING_TIME, htxRoutes } from "@/tests/fixtures/venues/replays/htx";
import { htxFundingInterval } from "./htx";

// No HTX recording exists: the payloads are HTX's documented examples as ccxt's htx.js quotes them
// (the linear future contract row, BTC-USDT's current funding-rate answer and open-interest row,
// unaltered) and SYNTHETIC rows in their shape (sample/replays/htx.ts says which). What is asserted
// is how the connector reads that documented shape, not live numbers.
describe("htx connector", () => {
  it("reads rate and settlement from the batch funding list, the interval and bounds from the current funding-rate answer", async () => {
    const { result, requests } = await replayVenue("htx", htxRoutes());
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("BTC/USDT:USDT")).toEqual({
      exchange: "htx",
      market: "BTC/USDT:USDT",
      venueMarketId: "BTC-USDT",
      base: "BTC",
      venueBase: "BTC",
      contractMultiplier: 1,
      quote: "USDT",
      settle: "USDT",
      fundingRate: 0.000083024939363172,
      // estimated_rate is null (deprecated); the bounds are the documented min/max_funding_rate.
      predictedFundingRate: null,
      rateCap: 0.00375,
      rateFloor: -0.00375,
      // The documented answer's next_funding_time − funding_time: 16:00Z − 08:00Z.
      fundingIntervalHours: 8,
      fundingIntervalSource: "schedule",
      // funding_time is the settlement the current rate is charged at.
      nextFundingAt: HTX_FUNDING_TIME,
      // No all-contract mark or index price is read.
      markPrice: null,
      indexPrice: null,
      // value and trade_turnover are in USDT.
      openInterestUsd: 2063137924.9668,
      volume24hUsd: 723600792.7222,
      takerFee: 0.0005,
      observedAt: HTX_FUNDING_TS,
    });
    expect(bySymbol.get("DOGE/USDT:USDT")).toMatchObject({ fundingRate: -0.000215, fundingIntervalHours: 4, fundingIntervalSource: "schedule", rateCap: 0.02 });
    // LSK has no current funding-rate row: its 05:00Z settlement against the batch payload's
    // 04:35Z fits only the hourly schedule.
    expect(bySymbol.get("LSK/USDT:USDT")).toMatchObject({
      fundingRate: -0.000402,
      fundingIntervalHours: 1,
      fundingIntervalSource: "schedule",
      nextFundingAt: HTX_HOURLY_FUNDING_TIME,
      openInterestUsd: null,
    });
    // USDT-margined contracts only: no spot symbols, coin-margined swaps or futures, no currencies.
    expect(requests.map((request) => `${request.path} ${JSON.stringify(request.query)}`)).toEqual([
      '/linear-swap-api/v1/swap_contract_info {"business_type":"all"}',
      "/linear-swap-api/v1/swap_batch_funding_rate {}",
      '/linear-swap-api/v1/swap_open_interest {"business_type":"swap"}',
      // Listed contracts, ten a request.
      '/v5/market/funding_rate {"contract_code":"BTC-USDT,ETH-USDT,DOGE-USDT,LSK-USDT,OLD-USDT"}',
    ]);
  });

  it("excludes the dated linear future and the suspended swap", async () => {
    const { result } = await replayVenue("htx", htxRoutes());
    expect([...snapshotsBySymbol(result).keys()].sort()).toEqual(["BTC/USDT:USDT", "DOGE/USDT:USDT", "ETH/USDT:USDT", "LSK/USDT:USDT"]);
    expect(result.status === "ok" && result.excluded).toEqual({ notLinearPerp: 1, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 0 });
  });

  it("loses only open interest and volume when their list fails", async () => {
    const routes = htxRoutes().filter((route) => route.path !== "/linear-swap-api/v1/swap_open_interest");
    const { result } = await replayVenue("htx", routes);
    expect(snapshotsBySymbol(result).get("ETH/USDT:USDT")).toMatchObject({
      fundingRate: 0.0001,
      fundingIntervalHours: 8,
      openInterestUsd: null,
      volume24hUsd: null,
    });
    expect(result.status === "ok" && result.warnings.map((warning) => warning.split(":")[0])).toEqual(["open-interest"]);
  });

  it("goes stale on an error status in a 200", async () => {
    const error = {
      path: "/linear-swap-api/v1/swap_batch_funding_rate",
      reply: { body: { status: "error", err_code: 1032, err_msg: "The number of access exceeded the limit.", ts: HTX_FUNDING_TS } },
    };
    const { result } = await replayVenue("htx", [error, ...htxRoutes()]);
    expect(result.status).toBe("stale");
  });
});

describe("htxFundingInterval", () => {
  const at = Date.UTC(2026, 5, 12, 4, 35);

  it("reads HTX's documented current funding-rate answer (unaltered) as 8h, and names no settlement_period", () => {
    const documented = fixtureJson<typeof HTX_DOCUMENTED_CURRENT_FUNDING>("htx/v5_market_funding_rate_BTC-USDT_ccxt-doc-example.json");
    // The replay serves the documented answer's row and envelope as they are.
    expect(documented).toEqual(HTX_DOCUMENTED_CURRENT_FUNDING);
    const [row] = documented.data;
    const batchRow = { funding_time: row?.funding_time, next_funding_time: null };
    expect(htxFundingInterval(batchRow, row, documented.ts)).toEqual({ hours: 8, source: "schedule" });
    // A settlement_period field (in no HTX document) is not read: 08:00Z seen at 04:35Z stays open.
    expect(htxFundingInterval({ ...batchRow, settlement_period: "4" }, { settlement_period: "4" }, Date.UTC(2026, 5, 12, 4, 35))).toBeNull();
  });

  it("uses next_funding_time − funding_time where a row still carries both", () => {
    const row = { funding_time: "1781251200000", next_funding_time: "1781280000000" };
    expect(htxFundingInterval(row, undefined, at)).toEqual({ hours: 8, source: "schedule" });
  });

  it("is unknown when the schedule leaves more than one interval open", () => {
    // 08:00Z seen at 04:35Z fits both 4h and 8h.
    expect(htxFundingInterval({ funding_time: String(Date.UTC(2026, 5, 12, 8)), next_funding_time: null }, undefined, at)).toBeNull();
    expect(htxFundingInterval({ funding_time: String(Date.UTC(2026, 5, 12, 8)) }, undefined, undefined)).toBeNull();
  });
});
