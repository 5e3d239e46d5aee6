import { describe, expect, it } from "vitest";
import { alignSeries, readSampleHistory, type RecordedSeries } from "./sample-history";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const AS_OF = Date.parse("2025-06-17T08:38:08Z");
/** The offline sample's as-of: its oldest recording's moment (KuCoin's, lib/market/README.md "Offline first run"). */
const SAMPLE_AS_OF = Date.parse("2023-10-31T12:55:42.390Z");

const series = (over: Partial<RecordedSeries>): RecordedSeries => ({
  exchange: "kucoinfutures",
  market: "BTC/USDT:USDT",
  base: "BTC",
  intervalHours: 8,
  source: "test",
  first: Date.parse("2023-12-31T04:00:00.000Z"),
  gaps: [8 * HOUR + 3, 8 * HOUR - 1],
  rates: [0.0001, -0.00025, 0.000484],
  ...over,
});

describe("alignSeries", () => {
  it("moves a series by whole intervals so its last settlement is the last one due by the as-of, keeping the grid, spacing and rates", () => {
    const aligned = alignSeries(series({}), AS_OF);
    // KuCoin settles at 04/12/20 UTC: 2023-12-31 20:00 lands on 2025-06-17 04:00, not 08:00.
    expect(aligned.map((s) => new Date(s.time).toISOString())).toEqual(["2025-06-16T12:00:00.000Z", "2025-06-16T20:00:00.003Z", "2025-06-17T04:00:00.002Z"]);
    expect(aligned.map((s) => s.rate)).toEqual([0.0001, -0.00025, 0.000484]);
    expect(aligned[0]).toMatchObject({ exchange: "kucoinfutures", market: "BTC/USDT:USDT", base: "BTC", intervalHours: 8 });
  });

  it("moves a series ending after the as-of back to the last interval before it", () => {
    const hourly = series({ intervalHours: 1, first: AS_OF + 30 * DAY, gaps: [HOUR + 48], rates: [1.25e-5, 2e-5] });
    expect(alignSeries(hourly, AS_OF).map((s) => new Date(s.time).toISOString())).toEqual(["2025-06-17T06:38:08.000Z", "2025-06-17T07:38:08.048Z"]);
  });
});

describe("the bundled history", () => {
  it("gives every series at least 30 days of settlements ending by the sample's as-of, at its stated interval", async () => {
    const settlements = await readSampleHistory(SAMPLE_AS_OF);
    const byMarket = new Map<string, typeof settlements>();
    for (const s of settlements) {
      const key = `${s.exchange} ${s.market}`;
      const rows = byMarket.get(key) ?? [];
      rows.push(s);
      byMarket.set(key, rows);
    }
    expect([...byMarket.keys()]).toEqual(
      expect.arrayContaining(["binance BTC/USDT:USDT", "binance ETH/USDT:USDT", "bybit BTC/USDT:USDT", "bybit ETH/USDT:USDT", "hyperliquid BTC/USDC:USDC", "hyperliquid ETH/USDC:USDC"]),
    );
    for (const [market, rows] of byMarket) {
      const times = rows.map((s) => s.time);
      const interval = rows[0]!.intervalHours * HOUR;
      expect(times.at(-1)!, market).toBeLessThanOrEqual(SAMPLE_AS_OF);
      expect(times.at(-1)!, market).toBeGreaterThan(SAMPLE_AS_OF - interval);
      expect(times.at(-1)! - times[0]!, market).toBeGreaterThanOrEqual(30 * DAY);
      for (let i = 1; i < times.length; i++) expect(Math.abs(times[i]! - times[i - 1]! - interval), market).toBeLessThan(1000);
    }
  });
});
