import { describe, expect, it } from "vitest";
import { walkHistory } from "@/lib/history/venues/walk-history";
import { HISTORY_READERS } from "@/lib/history/venues/history-readers";
import { historyReplays, replayIo, SettlementSeries, unreplayedVenues } from "./history-replays";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 30, 12);

describe("SettlementSeries", () => {
  const series = new SettlementSeries(0, 10 * 8 * HOUR, 8 * HOUR, [3, 0]);

  it("places slot i at start + i intervals plus the recording's jitter", () => {
    expect(series.count).toBe(11);
    expect([0, 1, 2].map((i) => series.time(i))).toEqual([3, 8 * HOUR, 16 * HOUR + 3]);
  });

  it("finds the slots within a range, its bounds included, jitter counted", () => {
    expect(series.within(0, 8 * HOUR)).toEqual([0, 2]);
    expect(series.within(4, 8 * HOUR - 1)).toEqual([1, 1]);
    expect(series.within(16 * HOUR + 3, 100 * HOUR)).toEqual([2, 11]);
  });
});

describe("historyReplays", () => {
  const bases = ["A0000", "A0001"];
  const replays = historyReplays({ bases, start: NOW - 40 * DAY, end: NOW });

  // A reader added later (Lighter's) is named by unreplayedVenues until its replay joins DEFINITIONS.
  it("replays the 26 venues with a history reader, each with its own reader, and names any other", () => {
    const venues = "aster backpack binance bingx bitget bitmart bitmex bybit coinex deribit derive dydx extended gate grvt htx hyperliquid krakenfutures kucoinfutures lighter mexc okx pacifica paradex phemex woo";
    expect(replays.map((r) => r.exchange).sort()).toEqual(venues.split(" "));
    expect(unreplayedVenues().sort()).toEqual(HISTORY_READERS.map((r) => r.exchange).filter((e) => !replays.some((r) => r.exchange === e)).sort());
    for (const replay of replays) expect(HISTORY_READERS).toContain(replay.reader);
  });

  // Each replay read by the venue's real reader, walked to the end: every settlement of the range
  // once, in the venue's own answer shape and paging (a page cut or repeated would show here).
  it.each(replays.map((r) => [r.exchange, r] as const))("%s pages every settlement of a range exactly once through its reader", async (_, replay) => {
    const range = { since: NOW - 30 * DAY, until: NOW };
    const io = replayIo(replay);
    const walked = await walkHistory(io, replay.reader, replay.market("A0001"), range);
    const [lo, hi] = replay.series.within(Math.max(range.since, replay.series.start), range.until);
    const expected = Array.from({ length: hi - lo }, (_, i) => replay.series.time(lo + i));
    expect(walked.settlements.map((s) => s.time)).toEqual(expected);
    expect(new Set(walked.settlements.map((s) => s.rate)).size).toBeGreaterThan(0);
    // One request a page, but Paradex: a page there is a row and a boundary window for each of its periods.
    if (replay.exchange === "paradex") expect(io.requests).toBeGreaterThan(walked.pages * 20);
    else expect(io.requests).toBe(walked.pages);
    // Settlements come at the recording's interval (KuCoin's 04/12/20 UTC is on its 8-hour grid too).
    expect(walked.settlements[1]!.time - walked.settlements[0]!.time).toBeGreaterThan(replay.intervalHours * HOUR - 2_000);
    expect(walked.settlements[1]!.time - walked.settlements[0]!.time).toBeLessThan(replay.intervalHours * HOUR + 2_000);
  });

  it("spreads the assets' rates apart and refuses a market the venue does not list", async () => {
    const binance = replays.find((r) => r.exchange === "binance")!;
    const range = { since: NOW - 2 * DAY, until: NOW };
    const [a, b] = await Promise.all(bases.map((base) => walkHistory(replayIo(binance), binance.reader, binance.market(base), range)));
    expect(a!.settlements.map((s) => s.time)).toEqual(b!.settlements.map((s) => s.time));
    expect(a!.settlements.map((s) => s.rate)).not.toEqual(b!.settlements.map((s) => s.rate));
    await expect(walkHistory(replayIo(binance), binance.reader, binance.market("ZZZ"), range)).rejects.toThrow(/no market/);
  });

  it("serves OKX no further back than its 3 months", () => {
    const [binance, okx] = historyReplays({ bases, start: NOW - 200 * DAY, end: NOW, venues: ["binance", "okx"] });
    expect(okx!.series.start).toBeGreaterThanOrEqual(NOW - 90 * DAY);
    expect(okx!.series.start).toBeLessThan(NOW - 89 * DAY);
    expect(binance!.series.start).toBeLessThan(NOW - 199 * DAY);
  });

  it("serves Paradex observations 5 s apart in the recorded shape, whose index deltas are the settlements' rates", async () => {
    const paradex = replays.find((r) => r.exchange === "paradex")!;
    const url = (query: string) => `https://api.prod.paradex.trade/v1/funding/data?market=A0001-USD-PERP&${query}`;
    const io = replayIo(paradex);
    const page = (await io.getJson(url(`end_at=${NOW}&page_size=3`))) as { next: string; results: Record<string, unknown>[] };
    expect(page.results.map((r) => r.created_at)).toEqual([0, 1, 2].map((j) => Number(page.results[0]!.created_at) - j * 5000));
    expect(Object.keys(page.results[0]!).sort()).toEqual(
      ["created_at", "funding_index", "funding_period_hours", "funding_premium", "funding_rate", "funding_rate_8h", "impact_premium_rate", "market"].sort(),
    );
    expect(page.next).toBe("3");
    const next = (await io.getJson(url(`end_at=${NOW}&page_size=3&cursor=3`))) as { results: Record<string, unknown>[] };
    expect(next.results[0]!.created_at).toBe(Number(page.results[2]!.created_at) - 5000);
    const walked = await walkHistory(replayIo(paradex), paradex.reader, paradex.market("A0001"), { since: NOW - 3 * DAY, until: NOW });
    const window = (at: number) => io.getJson(url(`start_at=${at}&end_at=${at + 30_000}&page_size=100`)) as Promise<{ results: Record<string, unknown>[] }>;
    const [open, close] = await Promise.all([window(walked.settlements[0]!.time - 8 * HOUR), window(walked.settlements[0]!.time)]);
    expect(close.results.at(-1)!.funding_rate).not.toBe(open.results.at(-1)!.funding_rate);
    expect(walked.settlements[0]!.rate).toBeCloseTo(Number(open.results.at(-1)!.funding_rate), 12);
  });

  it("serves BitMart's latest 100 settlements only, and Backpack's running interval first", async () => {
    const bitmart = replays.find((r) => r.exchange === "bitmart")!;
    expect(bitmart.series.count).toBe(100);
    expect(bitmart.series.time(99)).toBeLessThanOrEqual(NOW);
    const backpack = replays.find((r) => r.exchange === "backpack")!;
    const rows = (await replayIo(backpack).getJson("https://api.backpack.exchange/api/v1/fundingRates?symbol=A0001_USDC_PERP&limit=2&offset=0")) as Record<string, string>[];
    expect(rows.map((r) => Date.parse(`${r.intervalEndTimestamp}Z`))).toEqual([NOW + HOUR, NOW]);
    const page = await backpack.reader.readPage(replayIo(backpack), backpack.market("A0001"), { since: NOW - DAY, until: NOW }, null);
    expect(page.settlements[0]!.time).toBe(NOW);
  });

  it("serves Deribit's hourly rows with interest_8h the sum of the trailing eight interest_1h", async () => {
    const deribit = replays.find((r) => r.exchange === "deribit")!;
    const url = `https://www.deribit.com/api/v2/public/get_funding_rate_history?instrument_name=A0001_USDC-PERPETUAL&start_timestamp=${NOW - 2 * DAY}&end_timestamp=${NOW}`;
    const { result } = (await replayIo(deribit).getJson(url)) as { result: { timestamp: number; interest_1h: number; interest_8h: number }[] };
    expect(result).toHaveLength(49);
    expect(result[1]!.timestamp - result[0]!.timestamp).toBe(HOUR);
    for (const i of [8, 20, 48]) {
      expect(result[i]!.interest_8h).toBeCloseTo(result.slice(i - 7, i + 1).reduce((sum, r) => sum + r.interest_1h, 0), 15);
    }
  });
});
