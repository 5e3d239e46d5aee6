import { describe, expect, it } from "vitest";
import { usdtPerp } from "@/tests/support/market/make-snapshot";
import { fixtureJson } from "@/tests/fixtures/venues/read-fixture";
import { replayVenue } from "@/tests/support/market/replay-venue";
import type { ReplayRoute } from "../replay-fetch";
import {
  binance2024Routes,
  binance2025Routes,
  binanceFundingInfoRows,
  binanceTickerRows,
} from "@/tests/fixtures/venues/venue-replays";
import type { MarketSnapshot, VenueSnapshotResult } from "../../model/types";
import { binanceFundingInterval } from "./binance";

const replayBinance = (routes: ReplayRoute[]) => replayVenue("binance", routes);

function okSnapshots(result: VenueSnapshotResult): Map<string, MarketSnapshot> {
  if (result.status !== "ok") throw new Error(`expected ok, got: ${result.error}`);
  return new Map(result.snapshots.map((snapshot) => [snapshot.venueMarketId, snapshot]));
}

describe("binance connector, real 2021 exchangeInfo + real 2024-11-27 premiumIndex", () => {
  it("parses the funding rows of the listed perpetuals exactly", async () => {
    const { result, requests } = await replayBinance(binance2024Routes());
    const byId = okSnapshots(result);
    expect([...byId.keys()].sort()).toEqual(
      ["ADAUSDT", "BCHUSDT", "BTCUSDT", "ETCUSDT", "ETHUSDT", "LINKUSDT", "LTCUSDT", "TRXUSDT", "XRPUSDT"],
    );
    expect(byId.get("BTCUSDT")).toEqual({
      exchange: "binance",
      ...usdtPerp("BTC"),
      fundingRate: 0.00013062,
      // Binance's one quoted rate is its forecast too; no bounds without a fundingInfo row.
      predictedFundingRate: 0.00013062,
      rateCap: null,
      rateFloor: null,
      // 16:00Z seen at 13:54Z leaves 4h or 8h; interestRate 0.0001 = 0.03 %/day × 8/24 picks 8h.
      fundingIntervalHours: 8,
      fundingIntervalSource: "interest-rate",
      nextFundingAt: 1732723200000,
      markPrice: 93951.8,
      indexPrice: 93902.89680851,
      openInterestUsd: null,
      volume24hUsd: null,
      takerFee: 0.0005,
      observedAt: 1732715655000,
    });
    // The other 58 premiumIndex rows have no market in the 2021 list.
    if (result.status === "ok") expect(result.excluded.unlisted).toBe(58);
    // fundingInfo and ticker/24hr were asked for, had no recording, and only cost warnings.
    expect(requests.map((request) => request.path)).toEqual([
      "/fapi/v1/exchangeInfo",
      "/fapi/v1/premiumIndex",
      "/fapi/v1/fundingInfo",
      "/fapi/v1/ticker/24hr",
    ]);
    if (result.status === "ok") expect(result.warnings).toHaveLength(2);
  });

  it("prefers fundingInfo, and reads absence from a loaded fundingInfo as the 8h default", async () => {
    // SYNTHETIC fundingInfo listing XRPUSDT at 4h (the schedule allows 4h or 8h at 13:54Z), and
    // SYNTHETIC 24h tickers for volume.
    const { result } = await replayBinance([
      { path: "/fapi/v1/fundingInfo", reply: { body: binanceFundingInfoRows({ XRPUSDT: 4 }) } },
      { path: "/fapi/v1/ticker/24hr", reply: { body: binanceTickerRows({ BTCUSDT: "15234567890.12", XRPUSDT: "bad" }) } },
      ...binance2024Routes(),
    ]);
    const byId = okSnapshots(result);
    expect(byId.get("XRPUSDT")).toMatchObject({ fundingIntervalHours: 4, fundingIntervalSource: "venue" });
    expect(byId.get("BTCUSDT")).toMatchObject({
      fundingIntervalHours: 8,
      fundingIntervalSource: "venue-default",
      volume24hUsd: 15234567890.12,
    });
    // Bounds come only with a fundingInfo row: XRP's adjusted cap and floor, none stated for BTC.
    expect(byId.get("XRPUSDT")).toMatchObject({ rateCap: 0.02, rateFloor: -0.02 });
    expect(byId.get("BTCUSDT")).toMatchObject({ rateCap: null, rateFloor: null });
    // A garbled volume figure is unknown; it does not cost XRP its funding row.
    expect(byId.get("XRPUSDT")).toMatchObject({ fundingRate: 0.0001, volume24hUsd: null });
    expect(result.status === "ok" && result.warnings).toEqual([]);
  });
});

describe("binance connector, real 2025-06-17 premiumIndex (synthetic exchangeInfo)", () => {
  it("detects 1h/2h/4h/8h intervals from the settlement schedule", async () => {
    const { result } = await replayBinance(binance2025Routes());
    const byId = okSnapshots(result);
    const interval = (id: string) => byId.get(id)?.fundingIntervalHours;
    for (const id of ["AXLUSDT", "WCTUSDT", "LPTUSDT", "SOPHUSDT", "SIGNUSDT", "RVNUSDT"]) expect(interval(id)).toBe(1);
    expect(interval("FLMUSDT")).toBe(2);
    for (const id of ["TONUSDT", "WIFUSDT", "ENAUSDT", "ENAUSDC", "ALTUSDT", "1000BONKUSDT"]) expect(interval(id)).toBe(4);
    for (const id of ["BTCUSDT", "ETHUSDT", "STGUSDT", "SOLUSDC"]) expect(interval(id)).toBe(8);
    // BNB's interestRate is 0 (it names no interval) but 16:00Z at 08:38Z can only be 8h.
    expect(byId.get("BNBUSDT")).toMatchObject({ fundingRate: 0, fundingIntervalHours: 8, fundingIntervalSource: "schedule" });
  });

  it("keeps negative rates and normalises bundled bases", async () => {
    const { result } = await replayBinance(binance2025Routes());
    const byId = okSnapshots(result);
    expect(byId.get("ALTUSDT")).toMatchObject({ fundingRate: -0.00205266, fundingIntervalHours: 4 });
    expect(byId.get("LPTUSDT")).toMatchObject({ fundingRate: -0.00017425, fundingIntervalHours: 1 });
    expect(byId.get("1000PEPEUSDC")).toMatchObject({
      market: "1000PEPE/USDC:USDC",
      base: "PEPE",
      venueBase: "1000PEPE",
      contractMultiplier: 1000,
      settle: "USDC",
      markPrice: 0.010518,
    });
  });

  it("excludes delivery contracts, BTC-quoted perpetuals and settling symbols", async () => {
    const { result } = await replayBinance(binance2025Routes());
    const byId = okSnapshots(result);
    for (const id of ["BTCUSDT_250627", "BTCUSDT_250926", "ETHUSDT_250627", "ETHUSDT_250926", "ETHBTC", "BNBBTC"]) {
      expect(byId.has(id)).toBe(false);
    }
    for (const id of ["TROYUSDT", "VIDTUSDT", "OCEANUSDT"]) expect(byId.has(id)).toBe(false);
    const rows = fixtureJson<unknown[]>("binance/premiumIndex_2025-06-17.json");
    expect(byId.size).toBe(rows.length - 6 - 3);
    if (result.status === "ok") {
      expect(result.excluded).toEqual({ notLinearPerp: 6, inactive: 3, unlisted: 0, invalid: 0, noFundingRow: 0 });
    }
  });
});

describe("binanceFundingInterval", () => {
  const at0838 = { time: 1750149488000, fundingInfoLoaded: false, fundingInfoHours: undefined };

  it("trusts fundingInfo over everything else", () => {
    expect(
      binanceFundingInterval({ ...at0838, fundingInfoHours: 4, fundingInfoLoaded: true, nextFundingTime: 1750176000000, interestRate: 0.0001 }),
    ).toEqual({ hours: 4, source: "venue" });
  });

  it("does not read the 8h default into a schedule that rules 8h out", () => {
    expect(
      binanceFundingInterval({ ...at0838, fundingInfoLoaded: true, nextFundingTime: 1750150800000, interestRate: 0.0000125 }),
    ).toEqual({ hours: 1, source: "schedule" });
  });

  it("gives up rather than guess when schedule and interest rate leave it open", () => {
    // 2024 BNBUSDT: 16:00Z at 13:54Z (4h or 8h) and interestRate 0.
    expect(
      binanceFundingInterval({ time: 1732715655000, fundingInfoLoaded: false, fundingInfoHours: undefined, nextFundingTime: 1732723200000, interestRate: 0 }),
    ).toBeNull();
    // An interest rate naming an interval the schedule rules out is no evidence either.
    expect(
      binanceFundingInterval({ time: 1732715655000, fundingInfoLoaded: false, fundingInfoHours: undefined, nextFundingTime: 1732723200000, interestRate: 0.0000125 }),
    ).toBeNull();
    expect(
      binanceFundingInterval({ ...at0838, nextFundingTime: undefined, interestRate: 0.0001 }),
    ).toBeNull();
  });
});
