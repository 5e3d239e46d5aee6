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

  it("replays venues with a history reader, each with its own reader, and names the others", () => {
    expect(replays.length).toBeGreaterThanOrEqual(13);
    for (const replay of replays) expect(HISTORY_READERS).toContain(replay.reader);
    expect(unreplayedVenues().sort()).toEqual(HISTORY_READERS.map((r) => r.exchange).filter((e) => !replays.some((r) => r.exchange === e)).sort());
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
    expect(io.requests).toBe(walked.pages);
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
});
