import type { MarketInterface } from "ccxt";
import { expect } from "vitest";
import { netApr } from "@/lib/market/model/apr";
import { computeOpportunities } from "@/lib/market/opportunities/rank-opportunities";
import { asterFundingInterval } from "@/lib/market/venues/connectors/aster";
import { backpackFundingInterval } from "@/lib/market/venues/connectors/backpack";
import { binanceFundingInterval } from "@/lib/market/venues/connectors/binance";
import { bitmexIntervalHours } from "@/lib/market/venues/connectors/bitmex";
import { readIsoTime } from "@/lib/market/venues/connectors/build-snapshot";
import { bybitFundingInterval } from "@/lib/market/venues/connectors/bybit";
import { coinexFundingInterval } from "@/lib/market/venues/connectors/coinex";
import { deribitObservation } from "@/lib/market/venues/connectors/deribit";
import { nextWholeHour } from "@/lib/market/venues/connectors/dydx";
import { extendedRateBounds } from "@/lib/market/venues/connectors/extended";
import { nanosecondsToMs } from "@/lib/market/venues/connectors/grvt";
import { htxFundingInterval } from "@/lib/market/venues/connectors/htx";
import { parsePredictedFundings } from "@/lib/market/venues/connectors/hyperliquid";
import { kucoinFundingInterval, kucoinNextSettlement } from "@/lib/market/venues/connectors/kucoinfutures";
import { lighterHourlyRate } from "@/lib/market/venues/connectors/lighter";
import { phemexFundingInterval, phemexNextSettlement } from "@/lib/market/venues/connectors/phemex";
import { wooFundingInterval } from "@/lib/market/venues/connectors/woo";
import { fixtureJson } from "@/tests/fixtures/venues/read-fixture";
import { BITMEX_TIME, bitmexInstrumentRows, bitmexRoutes } from "@/tests/fixtures/venues/replays/bitmex";
import { DYDX_RECORDED_AT } from "@/tests/fixtures/venues/replays/dydx";
import { EXTENDED_NEXT_FUNDING_AT, EXTENDED_RECORDED_AT, extendedMarkets, extendedRoutes } from "@/tests/fixtures/venues/replays/extended";
import { HTX_DOCUMENTED_CURRENT_FUNDING } from "@/tests/fixtures/venues/replays/htx";
import type { VenueId } from "@/lib/market/model/types";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";

type Row = Record<string, unknown>;

/**
 * The traps only one venue has, which no column of venue-expectations.ts states: mostly the
 * connector's own parsing helpers on the edge cases of its venue's units, and checks of the REAL
 * recordings themselves. venue-contract.test.ts runs each as a test of its venue.
 */
export const VENUE_QUIRKS: { readonly [V in VenueId]?: Readonly<Record<string, () => unknown>> } = {
  aster: {
    "leaves the interval unknown when the schedule allows more than one, and takes fundingInfo's hours alone": () => {
      // 13:54 → 16:00 fits 4h and 8h alike.
      expect(asterFundingInterval({ fundingInfoHours: null, nextFundingTime: Date.UTC(2025, 8, 25, 16), time: Date.UTC(2025, 8, 25, 13, 54) })).toBeNull();
      expect(asterFundingInterval({ fundingInfoHours: 2, nextFundingTime: undefined, time: undefined })).toEqual({ hours: 2, source: "venue" });
    },
  },
  backpack: {
    "reads the interval whether it comes as a number or as ccxt's recorded string": () => {
      const [eth, ada] = fixtureJson<Row[]>("backpack/markets_PERP_entries_ccxt-markets.json");
      expect(eth?.fundingInterval).toBe("28800000");
      expect(backpackFundingInterval(eth ?? {})).toEqual({ hours: 8, source: "venue" });
      expect(backpackFundingInterval({ ...ada, fundingInterval: 3600000 })).toEqual({ hours: 1, source: "venue" });
      expect(backpackFundingInterval({ fundingInterval: null })).toBeNull();
    },
  },
  binance: {
    "trusts fundingInfo over everything else": () => {
      const at0838 = { time: 1750149488000, fundingInfoLoaded: true, fundingInfoHours: 4 };
      expect(binanceFundingInterval({ ...at0838, nextFundingTime: 1750176000000, interestRate: 0.0001 })).toEqual({ hours: 4, source: "venue" });
    },
    "does not read the 8h default into a schedule that rules 8h out": () => {
      const at0838 = { time: 1750149488000, fundingInfoLoaded: true, fundingInfoHours: undefined };
      expect(binanceFundingInterval({ ...at0838, nextFundingTime: 1750150800000, interestRate: 0.0000125 })).toEqual({ hours: 1, source: "schedule" });
    },
    "gives up rather than guess when schedule and interest rate leave it open": () => {
      const at1354 = { time: 1732715655000, fundingInfoLoaded: false, fundingInfoHours: undefined, nextFundingTime: 1732723200000 };
      // 2024 BNBUSDT: 16:00Z at 13:54Z (4h or 8h) and interestRate 0.
      expect(binanceFundingInterval({ ...at1354, interestRate: 0 })).toBeNull();
      // An interest rate naming an interval the schedule rules out is no evidence either.
      expect(binanceFundingInterval({ ...at1354, interestRate: 0.0000125 })).toBeNull();
      const at0838 = { time: 1750149488000, fundingInfoLoaded: false, fundingInfoHours: undefined };
      expect(binanceFundingInterval({ ...at0838, nextFundingTime: undefined, interestRate: 0.0001 })).toBeNull();
    },
  },
  bitmex: {
    "sizes the USD open interest as the position in coins at the mark price": async () => {
      const { result } = await replayVenue("bitmex", bitmexRoutes(), { now: () => BITMEX_TIME });
      const row = bitmexInstrumentRows().find((candidate) => candidate.symbol === "XBTUSDT") ?? {};
      const coins = Number(row.openInterest) / Number(row.underlyingToPositionMultiplier);
      expect(snapshotsBySymbol(result).get("BTC/USDT:USDT")?.openInterestUsd).toBeCloseTo(coins * Number(row.markPrice), 2);
    },
    "reads the REAL XBTUSD recording as BitMEX sent it: numbers as numbers, times and the interval as ISO strings, settled in XBt": () => {
      const real = fixtureJson<Row>("bitmex/instrument_XBTUSD_2024-11-24.json");
      expect(real).toMatchObject({ typ: "FFWCSX", isInverse: true, settlCurrency: "XBt", quoteCurrency: "USD", underlying: "XBT" });
      expect([real.fundingRate, real.indicativeFundingRate, real.markPrice, real.openValue].map((value) => typeof value)).toEqual([
        "number",
        "number",
        "number",
        "number",
      ]);
      expect(bitmexIntervalHours(real.fundingInterval)).toBe(8);
      expect(readIsoTime(real.fundingTimestamp)).toBe(Date.UTC(2024, 10, 25, 4));
    },
    "reads an interval written as a time on 2000-01-01, and nothing else": () => {
      expect(bitmexIntervalHours("2000-01-01T08:00:00.000Z")).toBe(8);
      expect(bitmexIntervalHours("2000-01-01T04:00:00.000Z")).toBe(4);
      expect(bitmexIntervalHours("2000-01-01T01:00:00.000Z")).toBe(1);
      expect(bitmexIntervalHours("2000-01-02T00:00:00.000Z")).toBe(24);
      // No span, a garbled one or none at all.
      for (const value of ["2000-01-01T00:00:00.000Z", "1999-12-31T20:00:00.000Z", "8h", 28800, null, undefined]) {
        expect(bitmexIntervalHours(value)).toBeNull();
      }
    },
  },
  bybit: {
    "prefers the ticker's hours to the instrument's minutes and knows when neither says": () => {
      expect(bybitFundingInterval({ fundingIntervalHour: "1" }, { fundingInterval: 480 })).toEqual({ hours: 1, source: "venue" });
      expect(bybitFundingInterval({}, { fundingInterval: 240 })).toEqual({ hours: 4, source: "venue" });
      expect(bybitFundingInterval({}, { fundingInterval: 0 })).toBeNull();
      expect(bybitFundingInterval({}, undefined)).toBeNull();
    },
  },
  coinex: {
    "takes the interval as the whole hours between the two settlements, else unknown": () => {
      expect(coinexFundingInterval({ latest_funding_time: 1715731200000, next_funding_time: 1715738400000 })).toEqual({ hours: 2, source: "schedule" });
      // 90 minutes is no settlement schedule.
      expect(coinexFundingInterval({ latest_funding_time: 1715731200000, next_funding_time: 1715736600000 })).toBeNull();
      expect(coinexFundingInterval({ latest_funding_time: 1715731200000 })).toBeNull();
      expect(coinexFundingInterval({ latest_funding_time: 1715760000000, next_funding_time: 1715731200000 })).toBeNull();
    },
  },
  deribit: {
    "reads the REAL BTC-PERPETUAL ticker (inverse: open interest already in USD)": () => {
      const data = fixtureJson<{ params: { data: Row } }>("deribit/ws_ticker_BTC-PERPETUAL_2025-12-12.json").params.data;
      expect(deribitObservation(data, { symbol: "BTC/USD:BTC", linear: false } as MarketInterface, 0)).toEqual({
        symbol: "BTC/USD:BTC",
        fundingRate: 0,
        rateCap: undefined,
        rateFloor: undefined,
        interval: { hours: 8, source: "continuous" },
        nextFundingAt: undefined,
        markPrice: 92281.78,
        indexPrice: 92263.55,
        openInterestUsd: 1132329370,
        volume24hUsd: 1092371540,
        observedAt: 1765541474086,
        lastSettlement: { rate: 0.00001742, at: 1765541474086 },
      });
      // current_funding is 0 because the premium, (mark − index) / index ≈ 0.0198 %, lies inside Deribit's ±0.025 %
      // damper; funding_8h still shows the last 8 hours' funding.
      const premium = (Number(data.mark_price) - Number(data.index_price)) / Number(data.index_price);
      expect(Math.abs(premium)).toBeLessThan(0.00025);
    },
    "ranks ccxt's documented BTC-PERPETUAL summary on +1.2966e-4 accruing now, not the trailing −8.1069e-4": () => {
      // ccxt deribit.js fetchOpenInterest comment (4.5.84), unchanged.
      const row = {
        instrument_name: "BTC-PERPETUAL",
        open_interest: 9978911260,
        mark_price: 87102.01,
        creation_timestamp: 1763674177068,
        volume_usd: 661040250.0,
        current_funding: 1.2966e-4,
        funding_8h: -8.1069e-4,
      };
      const observation = deribitObservation(row, { symbol: "BTC/USD:BTC", linear: false } as MarketInterface, 0);
      expect(observation.fundingRate).toBe(1.2966e-4);
      expect(observation.lastSettlement).toEqual({ rate: -8.1069e-4, at: 1763674177068 });
    },
  },
  dydx: {
    "takes the next settlement from the protocol's whole-hour ticks, which the REAL settlements follow": () => {
      expect(nextWholeHour(Date.UTC(2025, 11, 8, 16, 59, 59, 999))).toBe(Date.UTC(2025, 11, 8, 17));
      expect(nextWholeHour(Date.UTC(2025, 11, 8, 17))).toBe(Date.UTC(2025, 11, 8, 18));
      // The REAL historicalFunding rows: one settlement per hour, on the hour (to the block's second).
      const rows = fixtureJson<{ historicalFunding: { effectiveAt: string }[] }>("dydx/historicalFunding_BTC-USD_2025-12-08.json")
        .historicalFunding.map((row) => Date.parse(row.effectiveAt));
      for (const [index, at] of rows.entries()) {
        expect(at % 3_600_000).toBeLessThan(1_000);
        if (index > 0) expect(Math.round(((rows[index - 1] ?? 0) - at) / 3_600_000)).toBe(1);
      }
      // The sample's moment lies in the hour after the last recorded settlement.
      expect(DYDX_RECORDED_AT - (rows[0] ?? 0)).toBeGreaterThan(0);
      expect(DYDX_RECORDED_AT - (rows[0] ?? 0)).toBeLessThan(3_600_000);
    },
  },
  extended: {
    "dates the sample inside the hour before the recorded next settlement": () => {
      expect(EXTENDED_NEXT_FUNDING_AT - EXTENDED_RECORDED_AT).toBeGreaterThan(0);
      expect(EXTENDED_NEXT_FUNDING_AT - EXTENDED_RECORDED_AT).toBeLessThanOrEqual(3_600_000);
      const btc = (extendedMarkets() as { data: { marketStats: Row }[] }).data[0];
      expect(btc?.marketStats.nextFundingRate).toBe(EXTENDED_NEXT_FUNDING_AT);
    },
    "reads the cap as percent per hour and leaves a garbled one unknown": () => {
      expect(extendedRateBounds({ hourlyFundingRateCap: "2" })).toEqual({ rateCap: 0.02, rateFloor: -0.02 });
      expect(extendedRateBounds({})).toEqual({ rateCap: undefined, rateFloor: undefined });
      expect(extendedRateBounds({ hourlyFundingRateCap: "none" }).rateCap).toBeNaN();
    },
    "charges an Extended pair's net_apr Extended's published 0.025 % taker fee, not ccxt's 0.2 % placeholder": async () => {
      const { result } = await replayVenue("extended", extendedRoutes(), { now: () => EXTENDED_RECORDED_AT });
      const extended = snapshotsBySymbol(result).get("BTC/USDC:USDC");
      if (!extended) throw new Error("no Extended BTC snapshot");
      const other = makeSnapshot({ exchange: "okx", fundingRate: 0.0008, takerFee: 0.0005, observedAt: extended.observedAt });
      const [pair] = computeOpportunities([extended, other]).opportunities;
      expect(pair?.long.exchange).toBe("extended");
      // 0.0008/8h short against 0.000012/1h long.
      expect(pair?.net_apr).toBeCloseTo(netApr(pair?.apr ?? Number.NaN, 0.00025, 0.0005, 7), 5);
      // ccxt's placeholder would cost 2 × (0.002 − 0.00025) × 365 / 7 × 100 ≈ 18.25 points more.
      expect((pair?.net_apr ?? 0) - netApr(pair?.apr ?? Number.NaN, 0.002, 0.0005, 7)).toBeCloseTo(18.25, 2);
    },
  },
  grvt: {
    "reads nanosecond timestamps without losing the milliseconds": () => {
      expect(nanosecondsToMs("1764777600000000000")).toBe(1764777600000);
      expect(nanosecondsToMs("1764774730025055205")).toBe(1764774730025);
      expect(nanosecondsToMs(1764777600000000000)).toBe(1764777600000);
      expect(nanosecondsToMs(undefined)).toBeUndefined();
      expect(nanosecondsToMs("")).toBeUndefined();
      expect(nanosecondsToMs("soon")).toBeNaN();
      expect(nanosecondsToMs("-1")).toBeNaN();
    },
  },
  htx: {
    "reads HTX's documented current funding-rate answer (unaltered) as 8h, and names no settlement_period": () => {
      const documented = fixtureJson<typeof HTX_DOCUMENTED_CURRENT_FUNDING>("htx/v5_market_funding_rate_BTC-USDT_ccxt-doc-example.json");
      // The replay serves the documented answer's row and envelope as they are.
      expect(documented).toEqual(HTX_DOCUMENTED_CURRENT_FUNDING);
      const [row] = documented.data;
      const batchRow = { funding_time: row?.funding_time, next_funding_time: null };
      expect(htxFundingInterval(batchRow, row, documented.ts)).toEqual({ hours: 8, source: "schedule" });
      // A settlement_period field (in no HTX document) is not read: 08:00Z seen at 04:35Z stays open.
      expect(htxFundingInterval({ ...batchRow, settlement_period: "4" }, { settlement_period: "4" }, Date.UTC(2026, 5, 12, 4, 35))).toBeNull();
    },
    "uses next_funding_time − funding_time where a row still carries both, and is unknown where the schedule leaves it open": () => {
      const at = Date.UTC(2026, 5, 12, 4, 35);
      expect(htxFundingInterval({ funding_time: "1781251200000", next_funding_time: "1781280000000" }, undefined, at)).toEqual({
        hours: 8,
        source: "schedule",
      });
      // 08:00Z seen at 04:35Z fits both 4h and 8h.
      expect(htxFundingInterval({ funding_time: String(Date.UTC(2026, 5, 12, 8)), next_funding_time: null }, undefined, at)).toBeNull();
      expect(htxFundingInterval({ funding_time: String(Date.UTC(2026, 5, 12, 8)) }, undefined, undefined)).toBeNull();
    },
  },
  hyperliquid: {
    "parses only Hyperliquid's own entries of predictedFundings": () => {
      const parsed = parsePredictedFundings(fixtureJson("hyperliquid/predictedFundings_2026-07-30_partial.json"));
      expect([...parsed.keys()]).toEqual(["0G", "2Z", "AAVE", "ACE"]);
      expect(parsed.get("0G")).toEqual({ fundingRate: -0.0000561913, fundingIntervalHours: 1, nextFundingTime: 1785402000000 });
      expect(() => parsePredictedFundings({ not: "a list" })).toThrow();
    },
  },
  kucoinfutures: {
    "never reads the countdown as a time, and prefers a stated time over it": () => {
      const fetchedAt = Date.UTC(2026, 8, 22, 21, 43, 27, 120);
      expect(kucoinNextSettlement({ nextFundingRateTime: 8192636 }, fetchedAt)).toBe(Date.UTC(2026, 8, 23, 0));
      const stated = Date.UTC(2026, 8, 23, 4);
      expect(kucoinNextSettlement({ nextFundingRateTime: 8192636, nextFundingRateDateTime: stated }, fetchedAt)).toBe(stated);
      // No whole hour within a minute of the computed time: kept as computed.
      expect(kucoinNextSettlement({ nextFundingRateTime: 1_800_000 }, fetchedAt)).toBe(fetchedAt + 1_800_000);
      expect(kucoinNextSettlement({}, fetchedAt)).toBeUndefined();
      expect(kucoinNextSettlement({ nextFundingRateTime: "soon" }, fetchedAt)).toBeNaN();
    },
    "reads the interval in force (currentFundingRateGranularity) before the configured one": () => {
      // A contract moved from 8h to 4h: the period running now still settles on 8h.
      expect(kucoinFundingInterval({ currentFundingRateGranularity: 28_800_000, fundingRateGranularity: 14_400_000 })).toEqual({ hours: 8, source: "venue" });
      expect(kucoinFundingInterval({ fundingRateGranularity: 3_600_000 })).toEqual({ hours: 1, source: "venue" });
      expect(kucoinFundingInterval({})).toBeNull();
    },
  },
  lighter: {
    "divides by eight without the float's noise, and keeps absent and garbled rates apart": () => {
      expect(lighterHourlyRate(0.00009599999999999999)).toBe(0.000012);
      expect(lighterHourlyRate(-0.00014744)).toBe(-0.00001843);
      expect(lighterHourlyRate("0.0001")).toBe(0.0000125);
      expect(lighterHourlyRate(undefined)).toBeUndefined();
      expect(lighterHourlyRate("n/a")).toBeNaN();
    },
  },
  phemex: {
    "reads the interval in seconds, in whole hours only": () => {
      expect(phemexFundingInterval({ fundingInterval: 3600 })).toEqual({ hours: 1, source: "venue" });
      expect(phemexFundingInterval({ fundingInterval: "28800" })).toEqual({ hours: 8, source: "venue" });
      // The v1 list's hours (8), merged over a v2 row by ccxt, are not 8 seconds.
      expect(phemexFundingInterval({ fundingInterval: 8 })).toBeNull();
      expect(phemexFundingInterval({ fundingInterval: 5400 })).toBeNull();
      expect(phemexFundingInterval({})).toBeNull();
      expect(phemexFundingInterval(undefined)).toBeNull();
    },
    "settles at the next point of the interval's UTC grid, never the current one": () => {
      expect(phemexNextSettlement(Date.UTC(2022, 11, 27, 12, 6), 1)).toBe(Date.UTC(2022, 11, 27, 13));
      expect(phemexNextSettlement(Date.UTC(2022, 11, 27, 16), 8)).toBe(Date.UTC(2022, 11, 28, 0));
      expect(phemexNextSettlement(Date.UTC(2022, 11, 27, 12, 6), undefined)).toBeUndefined();
      expect(phemexNextSettlement(Number.NaN, 8)).toBeUndefined();
    },
  },
  woo: {
    "takes the stated hours of the coming settlement, else the span from the last settlement to the next": () => {
      const row = { lastFundingRateTimestamp: 1751616000000, nextFundingTime: 1751644800000, lastFundingIntervalHours: 4 };
      expect(wooFundingInterval({ ...row, estFundingIntervalHours: 8 })).toEqual({ hours: 8, source: "venue" });
      // The last period's hours are not the current period's.
      expect(wooFundingInterval(row)).toEqual({ hours: 8, source: "schedule" });
      expect(wooFundingInterval({ ...row, nextFundingTime: 1751616000000 })).toBeNull();
    },
  },
};
