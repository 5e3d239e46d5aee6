import { describe, expect, it } from "vitest";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import type { ReplayRoute } from "../replay-fetch";
import { bitmartContractRows } from "@/tests/fixtures/venues/replays/bitmart";

type Row = Record<string, unknown>;

// No recording of BitMart's contract list exists: BTCUSDT is BitMart's own DOCUMENTED EXAMPLE and
// the other rows are built in its shape (sample/replays/bitmart.ts). What is tested is how the
// connector reads BitMart's fields and units. BitMart has no class in the installed ccxt: these
// refreshes go through the plain-HTTP kind.
const PATH = "/contract/public/details";
const NOW = Date.UTC(2026, 2, 10, 13, 20);

function routesWith(edit: (row: Row) => Row = (row) => row): ReplayRoute[] {
  const symbols = bitmartContractRows().map(edit);
  return [{ path: PATH, reply: { body: { code: 1000, message: "OK", trace: "t", data: { symbols } } } }];
}

function row(symbol: string): Row {
  const found = bitmartContractRows().find((candidate) => candidate.symbol === symbol);
  if (!found) throw new Error(`no ${symbol} row`);
  return found;
}

describe("bitmart connector (plain HTTP)", () => {
  it("reads the contract list once: rate, forecast, stated interval, ms settlement, quote-currency values", async () => {
    const { result, requests } = await replayVenue("bitmart", routesWith(), { now: () => NOW });
    const bySymbol = snapshotsBySymbol(result);
    const btc = row("BTCUSDT");
    expect(bySymbol.get("BTC/USDT:USDT")).toEqual({
      exchange: "bitmart",
      market: "BTC/USDT:USDT",
      venueMarketId: "BTCUSDT",
      base: "BTC",
      venueBase: "BTC",
      contractMultiplier: 1,
      quote: "USDT",
      settle: "USDT",
      fundingRate: Number(btc.funding_rate),
      predictedFundingRate: Number(btc.expected_funding_rate),
      // The contract list states no bounds (only the per-symbol funding-rate endpoint does).
      rateCap: null,
      rateFloor: null,
      fundingIntervalHours: btc.funding_interval_hours,
      fundingIntervalSource: "venue",
      // 2026-03-10T16:00Z, in milliseconds.
      nextFundingAt: Date.UTC(2026, 2, 10, 16),
      // No mark price is published in the list; last_price is not one.
      markPrice: null,
      indexPrice: Number(btc.index_price),
      openInterestUsd: Number(btc.open_interest_value),
      volume24hUsd: Number(btc.turnover_24h),
      // No fee in the public list: unknown, not assumed.
      takerFee: null,
      // The list carries no time: when it was fetched.
      observedAt: NOW,
    });
    expect(bySymbol.get("ETH/USDT:USDT")).toMatchObject({
      fundingRate: -0.000035,
      predictedFundingRate: -0.00002,
      fundingIntervalHours: 4,
      fundingIntervalSource: "venue",
    });
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([`GET ${PATH}`]);
  });

  it("excludes delisted contracts and dated futures", async () => {
    const { result } = await replayVenue("bitmart", routesWith());
    expect([...snapshotsBySymbol(result).keys()]).toEqual(["BTC/USDT:USDT", "ETH/USDT:USDT"]);
    expect(result.status === "ok" && result.excluded).toEqual({ notLinearPerp: 1, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 0 });
  });

  it("drops a row whose settlement time is garbled, and costs only the field for a garbled statistic", async () => {
    const { result } = await replayVenue(
      "bitmart",
      routesWith((r) => {
        if (r.symbol === "ETHUSDT") return { ...r, funding_time: "soon" };
        if (r.symbol === "BTCUSDT") return { ...r, index_price: "", open_interest_value: "n/a", turnover_24h: null, funding_interval_hours: 0 };
        return r;
      }),
    );
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.has("ETH/USDT:USDT")).toBe(false);
    expect(result.status === "ok" && result.excluded.invalid).toBe(1);
    expect(bySymbol.get("BTC/USDT:USDT")).toMatchObject({
      fundingRate: 0.0001,
      fundingIntervalHours: null,
      fundingIntervalSource: null,
      indexPrice: null,
      openInterestUsd: null,
      volume24hUsd: null,
    });
  });

  it("reads a contract of an answer without `status` as listed", async () => {
    const { result } = await replayVenue(
      "bitmart",
      routesWith((r) => {
        const { status: _status, ...rest } = r;
        return rest;
      }),
    );
    // The delisted row is no longer marked: only the future is excluded.
    expect(result.status === "ok" && result.excluded).toMatchObject({ notLinearPerp: 1, inactive: 0 });
  });
});
