import { describe, expect, it } from "vitest";
import type { HistoryMarket, HistoryPage, VenueHistoryReader } from "../history-types";
import { binanceHistory } from "./binance";
import { bybitHistory } from "./bybit";
import { gateHistory } from "./gate";
import { htxHistory } from "./htx";
import { hyperliquidHistory } from "./hyperliquid";
import { kucoinfuturesHistory } from "./kucoinfutures";
import { dedupeSettlements, walkHistory } from "./walk-history";
import {
  binanceServer,
  bybitServer,
  fixedIo,
  gateServer,
  htxServer,
  hyperliquidServer,
  kucoinServer,
} from "@/tests/fixtures/history/history-servers";
import { historyJson, longSeries } from "@/tests/fixtures/history/read-history-fixture";

const HL_1038 = "hyperliquid/fundingHistory_BTC_startTime-only_2023-07-17_1038rows.json";

function market(exchange: string, venueMarketId: string): HistoryMarket {
  return { exchange, market: "BTC/USDT:USDT", venueMarketId, base: "BTC" };
}

describe("walkHistory", () => {
  it("walks Hyperliquid's 1038-row answer as 500-row pages by startTime and gets every row once", async () => {
    const rows = historyJson<{ time: number; fundingRate: string }[]>(HL_1038);
    const io = hyperliquidServer(rows, 500);
    const range = { since: 1681923833000, until: 1689700000000 };
    const { settlements, pages } = await walkHistory(io, hyperliquidHistory, market("hyperliquid", "BTC"), range);
    expect(settlements).toHaveLength(1038);
    expect(settlements[0]?.time).toBe(1683849600048);
    expect(settlements.at(-1)?.time).toBe(1689627600065);
    // Three full-or-short pages, then an empty one past the last row.
    expect(pages).toBe(4);
    const starts = io.requests.map((request) => (JSON.parse(request.slice(request.indexOf("{"))) as { startTime: number }).startTime);
    expect(starts[0]).toBe(range.since);
    expect(starts[1]).toBe((rows[499]?.time ?? 0) + 1);
    expect(starts[2]).toBe((rows[999]?.time ?? 0) + 1);
  });

  it("walks Bybit backwards by endTime over a year of 8-hourly settlements", async () => {
    const series = longSeries("bybit/longseries_BTCUSDT_2025-08-21_2026-08-21_zushen168.csv", "iso");
    const io = bybitServer(series, "BTCUSDT");
    const range = { since: series[0]?.time ?? 0, until: series.at(-1)?.time ?? 0 };
    const { settlements, pages } = await walkHistory(io, bybitHistory, market("bybit", "BTCUSDT"), range);
    expect(settlements.map((settlement) => settlement.time)).toEqual(series.map((row) => row.time));
    expect(settlements.map((settlement) => settlement.rate)).toEqual(series.map((row) => Number(row.rate)));
    expect(pages).toBe(6);
    expect(io.requests[1]).toContain(`endTime=${(series.at(-200)?.time ?? 0) - 1}`);
  });

  it("walks Binance forward from startTime with the ms jitter of its stamps", async () => {
    const series = longSeries("binance/longseries_BTCUSDT_2025-08-21_2026-08-21_zushen168.csv", "iso");
    expect(series.filter((row) => row.time % 1000 !== 0).length).toBeGreaterThan(500);
    const io = binanceServer(series, "BTCUSDT");
    const range = { since: series[0]?.time ?? 0, until: series.at(-1)?.time ?? 0 };
    const { settlements, pages } = await walkHistory(io, binanceHistory, market("binance", "BTCUSDT"), range);
    expect(settlements).toHaveLength(1095);
    expect(pages).toBe(2);
    expect(io.requests[1]).toContain(`startTime=${(series[999]?.time ?? 0) + 1}`);
  });

  it("walks Gate and KuCoin back window by window and HTX page by page to the same settlements", async () => {
    const range = { since: Date.UTC(2023, 9, 1), until: Date.UTC(2024, 0, 1) - 1 };
    const inRange = (rows: { time: number }[]) => rows.filter((row) => row.time >= range.since && row.time <= range.until).map((row) => row.time);

    const gate = longSeries("gate/longseries_BTC_USDT_2020-01-01_2023-12-31_supervik_utc.csv", "utc");
    const gateWalk = await walkHistory(gateServer(gate), gateHistory, market("gate", "BTC_USDT"), range);
    expect(gateWalk.settlements.map((settlement) => settlement.time)).toEqual(inRange(gate));

    const kucoin = longSeries("kucoinfutures/longseries_XBTUSDTM_2021-01-01_2023-12-31_supervik_localtime.csv", "utc+3");
    const kucoinWalk = await walkHistory(kucoinServer(kucoin, "XBTUSDTM"), kucoinfuturesHistory, market("kucoinfutures", "XBTUSDTM"), range);
    expect(kucoinWalk.settlements.map((settlement) => settlement.time)).toEqual(inRange(kucoin));
    // 92 days in windows of 100 hours.
    expect(kucoinWalk.pages).toBe(Math.ceil((range.until - range.since + 1) / (100 * 3_600_000)));

    const htx = longSeries("htx/longseries_BTC-USDT_2021-01-01_2023-12-31_supervik_localtime.csv", "utc+3");
    const htxWalk = await walkHistory(htxServer(htx, "BTC-USDT"), htxHistory, market("htx", "BTC-USDT"), range);
    expect(htxWalk.settlements.map((settlement) => settlement.time)).toEqual(inRange(htx));
    // Newest first: the page holding the oldest settlement in range also reaches past `since`, and ends the walk.
    expect(htxWalk.pages).toBe(Math.ceil(inRange(htx).length / 50));
  });

  it("walks a newest-first page-numbered venue past pages newer than the range", async () => {
    const htx = longSeries("htx/longseries_BTC-USDT_2021-01-01_2023-12-31_supervik_localtime.csv", "utc+3");
    const range = { since: Date.UTC(2022, 0, 1), until: Date.UTC(2022, 1, 1) - 1 };
    const { settlements } = await walkHistory(htxServer(htx, "BTC-USDT"), htxHistory, market("htx", "BTC-USDT"), range);
    // January 2022 at 8 hours: 93 settlements, behind two years of newer pages.
    expect(settlements).toHaveLength(93);
    expect(settlements[0]?.time).toBe(Date.UTC(2022, 0, 1, 0));
    expect(settlements.at(-1)?.time).toBe(Date.UTC(2022, 0, 31, 16));
  });

  it("stops at a page lying wholly before the range", async () => {
    const reader: VenueHistoryReader = {
      ...binanceHistory,
      async readPage(): Promise<HistoryPage> {
        return { settlements: [{ time: 1, rate: 0.0001, intervalHours: 8 }], next: "2" };
      },
    };
    const { settlements, pages } = await walkHistory(fixedIo([]), reader, market("binance", "BTCUSDT"), { since: 1000, until: 2000 });
    expect(settlements).toEqual([]);
    expect(pages).toBe(1);
  });

  it("stops when a venue hands back a cursor it gave before", async () => {
    let calls = 0;
    const reader: VenueHistoryReader = {
      ...binanceHistory,
      async readPage(): Promise<HistoryPage> {
        calls += 1;
        return { settlements: [{ time: 1500, rate: 0.0001, intervalHours: 8 }], next: "same" };
      },
    };
    const { settlements } = await walkHistory(fixedIo([]), reader, market("binance", "BTCUSDT"), { since: 1000, until: 2000 });
    expect(calls).toBe(2);
    expect(settlements).toHaveLength(1);
  });
});

describe("dedupeSettlements", () => {
  it("keeps one settlement per slot when pages overlap with jittered stamps", () => {
    const series = longSeries("binance/longseries_BTCUSDT_2025-08-21_2026-08-21_zushen168.csv", "iso").slice(0, 6);
    const page = series.map((row) => ({ time: row.time, rate: Number(row.rate), intervalHours: null }));
    // The same settlements read again with other millisecond tails, as a second page overlapping the first.
    const again = page.slice(2).map((settlement) => ({ ...settlement, time: settlement.time - (settlement.time % 1000) + 37 }));
    const deduped = dedupeSettlements([...again, ...page]);
    expect(deduped).toHaveLength(6);
    expect(deduped.map((settlement) => settlement.rate)).toEqual(page.map((settlement) => settlement.rate));
    expect(deduped.every((settlement, index) => index === 0 || settlement.time > (deduped[index - 1]?.time ?? 0))).toBe(true);
  });

  it("never merges two settlements an hour apart", () => {
    expect(dedupeSettlements([{ time: 3_600_000, rate: 1, intervalHours: 1 }, { time: 0, rate: 2, intervalHours: 1 }])).toHaveLength(2);
  });
});
