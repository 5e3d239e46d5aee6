import { describe, expect, it } from "vitest";
import { VENUE_IDS } from "@/lib/market/model/types";
import { HISTORY_READERS, VENUES_WITHOUT_HISTORY, historyReader } from "@/lib/history/venues/history-readers";
import { HISTORY_EXPECTATIONS } from "./history-expectations";

describe("the history reader table", () => {
  it("has a reader or a stated reason for every venue, never both", () => {
    const withReader = HISTORY_READERS.map((reader) => reader.exchange);
    const without = Object.keys(VENUES_WITHOUT_HISTORY);
    expect([...withReader, ...without].sort()).toEqual([...VENUE_IDS].sort());
    expect(new Set(withReader).size).toBe(withReader.length);
  });

  it("has at least one recorded or documented page for every reader", () => {
    const tested = new Set(HISTORY_EXPECTATIONS.map((row) => row.reader.exchange));
    expect(HISTORY_READERS.filter((reader) => !tested.has(reader.exchange)).map((reader) => reader.exchange)).toEqual([]);
  });

  it("states limits the backfill can plan with", () => {
    for (const reader of HISTORY_READERS) {
      expect(reader.limits.pageSize, reader.exchange).toBeGreaterThan(0);
      expect(reader.limits.requestsPerSecond, reader.exchange).toBeGreaterThan(0);
      expect(reader.limits.source, reader.exchange).toMatch(/^https:\/\//);
      expect(historyReader(reader.exchange)).toBe(reader);
    }
    expect(historyReader("okx")?.limits.maxDepthDays).toBe(90);
    expect(historyReader("kucoinfutures")?.limits.source).toMatch(/no pagination/);
  });
});

for (const row of HISTORY_EXPECTATIONS) {
  describe(row.reader.exchange, () => {
    it(row.name, async () => {
      const io = row.io();
      const page = await row.reader.readPage(io, row.market, row.range, null);
      expect(io.requests).toEqual(row.requests);
      expect(page.settlements).toHaveLength(row.count);
      const sorted = [...page.settlements].sort((a, b) => a.time - b.time);
      expect(sorted[0]).toEqual({ time: row.first.time, rate: row.first.rate, intervalHours: row.intervalHours });
      expect(sorted.at(-1)).toEqual({ time: row.last.time, rate: row.last.rate, intervalHours: row.intervalHours });
      expect(page.settlements.every((settlement) => settlement.intervalHours === row.intervalHours)).toBe(true);
      expect(page.next).toBe(row.next);
    });
  });
}
