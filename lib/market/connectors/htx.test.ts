import { describe, expect, it } from "vitest";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import { HTX_FUNDING_TIME, HTX_FUNDING_TS, HTX_HOURLY_FUNDING_TIME, htxRoutes } from "../sample/replays/htx";
import { htxFundingInterval } from "./htx";

// No HTX recording exists: every payload is a DOCUMENTED EXAMPLE in the shape ccxt's htx.js quotes
// from HTX's documentation (the linear future contract row and BTC-USDT's open-interest row
// verbatim, BTC-USDT's rate and settlement from ccxt's funding comment, `estimated_rate` and
// `next_funding_time` null as HTX documents them; the other rows SYNTHETIC in that shape).
// What is asserted is how the connector reads that documented shape, not live numbers.
describe("htx connector", () => {
  it("reads rate and settlement from the batch funding list, the interval from the contract list", async () => {
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
      // estimated_rate is null (deprecated); no bounds are read (stated ten contracts at a time).
      predictedFundingRate: null,
      rateCap: null,
      rateFloor: null,
      // The contract's settlement_period "8".
      fundingIntervalHours: 8,
      fundingIntervalSource: "venue",
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
    expect(bySymbol.get("DOGE/USDT:USDT")).toMatchObject({ fundingRate: -0.000215, fundingIntervalHours: 4, fundingIntervalSource: "venue" });
    // LSK's contract row states no settlement_period: its 05:00Z settlement against the payload's
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

  it("prefers the contract's settlement_period", () => {
    expect(htxFundingInterval({ funding_time: String(Date.UTC(2026, 5, 12, 5)) }, { settlement_period: "4" }, at)).toEqual({ hours: 4, source: "venue" });
  });

  it("uses next_funding_time − funding_time where a row still carries both", () => {
    const row = { funding_time: "1781251200000", next_funding_time: "1781280000000" };
    expect(htxFundingInterval(row, {}, at)).toEqual({ hours: 8, source: "schedule" });
  });

  it("is unknown when the schedule leaves more than one interval open", () => {
    // 08:00Z seen at 04:35Z fits both 4h and 8h.
    expect(htxFundingInterval({ funding_time: String(Date.UTC(2026, 5, 12, 8)), next_funding_time: null }, undefined, at)).toBeNull();
    expect(htxFundingInterval({ funding_time: String(Date.UTC(2026, 5, 12, 8)) }, undefined, undefined)).toBeNull();
  });
});
