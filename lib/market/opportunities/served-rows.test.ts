import { describe, expect, it } from "vitest";
import { runWhole } from "@/lib/time-slices";
import { wideMarket } from "@/tests/support/market/wide-market";
import { columnsOf, itemsOf } from "./encoding/columns";
import { rankOpportunities } from "./rank-opportunities";
import { entrySlices, ServedRows } from "./served-rows";

describe("ServedRows", () => {
  const { snapshots, ...history } = wideMarket(12);
  const round = rankOpportunities(snapshots, history).columns;
  // A second column set with ids of its own, as a set read from elsewhere may have.
  const batchItems = itemsOf(rankOpportunities(snapshots.filter((s) => s.base === "A3"), history).columns).map((o, i) => (i === 0 ? { ...o, id: "own-id" } : o));
  const batch = columnsOf(batchItems);

  it("reads every field of an entry as its item has it, in each column set added", () => {
    const rows = new ServedRows();
    const [first, second] = [rows.add(round), rows.add(batch)];
    expect([first, second]).toEqual([0, 1]);
    for (const [place, columns] of [[first, round], [second, batch]] as const) {
      const entries = runWhole(entrySlices(place, columns));
      expect(entries).toHaveLength(columns.count);
      const items = itemsOf(columns);
      entries.forEach((entry, row) => {
        const item = items[row]!;
        expect(rows.item(entry)).toEqual(item);
        expect([rows.apr(entry), rows.id(entry), rows.symbol(entry), rows.long(entry), rows.short(entry)]).toEqual([item.apr, item.id, item.symbol, item.long.exchange, item.short.exchange]);
        expect(rows.number(entry, "open_interest_usd")).toBe(item.open_interest_usd);
        expect(rows.number(entry, "persistence.paid_share_7d")).toBe(item.persistence.paid_share_7d ?? null);
        expect(rows.legs(entry)).toEqual([item.long, item.short]);
      });
    }
    expect(rows.id(runWhole(entrySlices(second, batch))[0]!)).toBe("own-id");
  });

  it("leaves out the rows of the assets excepted", () => {
    const rows = new ServedRows();
    const entries = runWhole(entrySlices(rows.add(round), round, new Set(["A3", "A7"])));
    const symbols = new Set(entries.map((entry) => rows.symbol(entry)));
    expect(symbols.has("A3") || symbols.has("A7")).toBe(false);
    expect(entries).toHaveLength(itemsOf(round).filter((o) => o.symbol !== "A3" && o.symbol !== "A7").length);
  });
});
