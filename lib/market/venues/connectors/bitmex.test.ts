import { describe, expect, it } from "vitest";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import type { ReplayRoute } from "../replay-fetch";
import { fixtureJson } from "@/tests/fixtures/venues/read-fixture";
import { BITMEX_TIME, bitmexInstrumentRows } from "@/tests/fixtures/venues/replays/bitmex";
import { bitmexIntervalHours, readIsoTime } from "./bitmex";

type Row = Record<string, unknown>;

// XBTUSD is the REAL recording (inverse, so excluded); XBTUSDT, ETHUSDT and the XBTUSDTZ24 future
// are DOCUMENTED EXAMPLES built in its shape (sample/replays/bitmex.ts). What is tested is how the
// connector reads BitMEX's fields and units. BitMEX has no class in the installed ccxt: these
// refreshes go through the plain-HTTP kind (a request for its ccxt module would fail to import).
const PATH = "/api/v1/instrument/active";

function routesWith(edit: (row: Row) => Row | undefined = (row) => row): ReplayRoute[] {
  const rows = bitmexInstrumentRows().flatMap((row) => edit(row) ?? []);
  return [{ path: PATH, reply: { body: rows } }];
}

function row(symbol: string): Row {
  const found = bitmexInstrumentRows().find((candidate) => candidate.symbol === symbol);
  if (!found) throw new Error(`no ${symbol} row`);
  return found;
}

describe("bitmex connector (plain HTTP)", () => {
  it("reads the instrument list once: rate, forecast, interval written as a date, USDt values, XBT as BTC", async () => {
    const { result, requests } = await replayVenue("bitmex", routesWith(), { now: () => BITMEX_TIME + 4_000 });
    const bySymbol = snapshotsBySymbol(result);
    const xbtusdt = row("XBTUSDT");
    expect(bySymbol.get("BTC/USDT:USDT")).toEqual({
      exchange: "bitmex",
      market: "BTC/USDT:USDT",
      venueMarketId: "XBTUSDT",
      base: "BTC",
      venueBase: "BTC",
      contractMultiplier: 1,
      quote: "USDT",
      settle: "USDT",
      fundingRate: xbtusdt.fundingRate,
      predictedFundingRate: xbtusdt.indicativeFundingRate,
      // No bound on the rate is stated in the instrument.
      rateCap: null,
      rateFloor: null,
      // "2000-01-01T08:00:00.000Z"
      fundingIntervalHours: 8,
      fundingIntervalSource: "venue",
      nextFundingAt: Date.UTC(2024, 10, 25, 4),
      markPrice: xbtusdt.markPrice,
      indexPrice: xbtusdt.indicativeSettlePrice,
      // openValue is in USDt (a millionth of a USDT): quoteToSettleMultiplier of them make a USDT.
      openInterestUsd: Number(xbtusdt.openValue) / 1_000_000,
      volume24hUsd: xbtusdt.foreignNotional24h,
      takerFee: 0.0005,
      // The instrument's own `timestamp`, not the clock.
      observedAt: BITMEX_TIME,
    });
    // The USD open interest is the position in coins at the mark price.
    const coins = Number(xbtusdt.openInterest) / Number(xbtusdt.underlyingToPositionMultiplier);
    expect(bySymbol.get("BTC/USDT:USDT")?.openInterestUsd).toBeCloseTo(coins * Number(xbtusdt.markPrice), 2);
    expect(bySymbol.get("ETH/USDT:USDT")).toMatchObject({
      venueMarketId: "ETHUSDT",
      fundingRate: -0.000042,
      predictedFundingRate: -0.000015,
      fundingIntervalHours: 8,
      openInterestUsd: Number(row("ETHUSDT").openValue) / 1_000_000,
    });
    // One request a refresh: the list is the markets and the funding payload.
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([`GET ${PATH}`]);
  });

  it("excludes the REAL inverse XBTUSD and the dated future", async () => {
    const { result } = await replayVenue("bitmex", routesWith());
    expect([...snapshotsBySymbol(result).keys()]).toEqual(["BTC/USDT:USDT", "ETH/USDT:USDT"]);
    expect(result.status === "ok" && result.excluded).toEqual({ notLinearPerp: 2, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 });

    // The recording as BitMEX sent it: numbers as numbers, times and the interval as ISO strings,
    // settled in XBt (satoshis).
    const real = fixtureJson<Row>("bitmex/instrument_XBTUSD_2024-11-24.json");
    expect(real).toMatchObject({ typ: "FFWCSX", isInverse: true, settlCurrency: "XBt", quoteCurrency: "USD", underlying: "XBT" });
    expect([typeof real.fundingRate, typeof real.indicativeFundingRate, typeof real.markPrice, typeof real.openValue]).toEqual([
      "number",
      "number",
      "number",
      "number",
    ]);
    expect(bitmexIntervalHours(real.fundingInterval)).toBe(8);
    expect(readIsoTime(real.fundingTimestamp)).toBe(Date.UTC(2024, 10, 25, 4));

    // Alone, the real payload has no eligible market: the venue is stale, not empty.
    const { result: onlyInverse } = await replayVenue("bitmex", routesWith((r) => (r.symbol === "XBTUSD" ? r : undefined)));
    expect(onlyInverse.status === "stale" && onlyInverse.error).toMatch(/no usable funding rate among 1 markets/);
  });

  it("counts an instrument that is not Open as inactive", async () => {
    const { result } = await replayVenue("bitmex", routesWith((r) => (r.symbol === "ETHUSDT" ? { ...r, state: "Closed" } : r)));
    expect(snapshotsBySymbol(result).has("ETH/USDT:USDT")).toBe(false);
    expect(result.status === "ok" && result.excluded.inactive).toBe(1);
  });

  it("drops a row whose next settlement is garbled, and costs only the field for a garbled statistic", async () => {
    const { result } = await replayVenue(
      "bitmex",
      routesWith((r) => {
        if (r.symbol === "ETHUSDT") return { ...r, fundingTimestamp: "soon" };
        if (r.symbol === "XBTUSDT") return { ...r, markPrice: "n/a", openValue: null, foreignNotional24h: undefined, fundingInterval: "8h" };
        return r;
      }),
    );
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.has("ETH/USDT:USDT")).toBe(false);
    expect(result.status === "ok" && result.excluded.invalid).toBe(1);
    // An interval BitMEX did not write as a date is unknown, never assumed.
    expect(bySymbol.get("BTC/USDT:USDT")).toMatchObject({
      fundingRate: 0.000104,
      fundingIntervalHours: null,
      fundingIntervalSource: null,
      markPrice: null,
      openInterestUsd: null,
      volume24hUsd: null,
    });
  });
});

describe("bitmexIntervalHours", () => {
  it("reads a span written as a time on 2000-01-01", () => {
    expect(bitmexIntervalHours("2000-01-01T08:00:00.000Z")).toBe(8);
    expect(bitmexIntervalHours("2000-01-01T04:00:00.000Z")).toBe(4);
    expect(bitmexIntervalHours("2000-01-01T01:00:00.000Z")).toBe(1);
    expect(bitmexIntervalHours("2000-01-02T00:00:00.000Z")).toBe(24);
  });

  it("gives null for no span, a garbled one or none at all", () => {
    expect(bitmexIntervalHours("2000-01-01T00:00:00.000Z")).toBeNull();
    expect(bitmexIntervalHours("1999-12-31T20:00:00.000Z")).toBeNull();
    expect(bitmexIntervalHours("8h")).toBeNull();
    expect(bitmexIntervalHours(28800)).toBeNull();
    expect(bitmexIntervalHours(null)).toBeNull();
    expect(bitmexIntervalHours(undefined)).toBeNull();
  });
});
