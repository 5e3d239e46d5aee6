import { describe, expect, it } from "vitest";
import { sandboxOpportunities } from "../sandbox/sandbox-opportunities";
import type { Opportunity } from "../model/types";
import { groupsOf, mergeGroups, spliceGroups } from "./opportunity-groups";
import { rankedBefore, spliceEntries } from "./splice-opportunities";
import { ITEM_FIELDS } from "@/tests/support/market/item-fields";

const { opportunities } = sandboxOpportunities(new Date("2026-11-21T16:00:00Z"));
const inSetOrder = (items: readonly Opportunity[]) => [...items].sort((a, b) => (rankedBefore(a.apr, a.id, b.apr, b.id) ? -1 : rankedBefore(b.apr, b.id, a.apr, a.id) ? 1 : 0));
const ranked = inSetOrder(opportunities);

describe("mergeGroups", () => {
  it("merges the groups of a set back into the set's order, groups empty or not", () => {
    const groups = groupsOf(ITEM_FIELDS, ranked);
    expect(groups.size).toBeGreaterThan(2);
    expect(mergeGroups(ITEM_FIELDS, groups)).toEqual(ranked);
    expect(mergeGroups(ITEM_FIELDS, new Map([...groups, ["EMPTY", []]]))).toEqual(ranked);
    expect(mergeGroups(ITEM_FIELDS, new Map())).toEqual([]);
  });
});

describe("spliceGroups", () => {
  it("replaces the groups of the bases, keeps the others as they were, and is what splicing the list gives", () => {
    const groups = groupsOf(ITEM_FIELDS, ranked);
    const [first, second] = [...groups.keys()];
    // `first` re-ranked with higher APRs, `second` gone, a new asset listed.
    const moved = inSetOrder(groups.get(first!)!.map((o, i) => ({ ...o, apr: o.apr + (i % 3) * 7.5 })));
    const listed = inSetOrder(groups.get(first!)!.map((o) => ({ ...o, symbol: "NEWCOIN", id: `NEWCOIN-${o.long.exchange}-${o.short.exchange}`, apr: o.apr - 1 })));
    const bases = new Set([first!, second!, "NEWCOIN"]);
    const replacement = inSetOrder([...moved, ...listed]);
    const next = spliceGroups(ITEM_FIELDS, groups, bases, replacement);
    expect(next.get(first!)).toEqual(moved);
    expect(next.has(second!)).toBe(false);
    expect(next.get("NEWCOIN")).toEqual(listed);
    for (const [symbol, group] of groups) if (!bases.has(symbol)) expect(next.get(symbol)).toBe(group);
    expect(groups.get(second!)).toBeDefined(); // the groups spliced from are left as they were
    expect(mergeGroups(ITEM_FIELDS, next)).toEqual(spliceEntries(ITEM_FIELDS, ranked, bases, replacement));
  });

  it("merges an item of an asset outside the bases into that asset's kept items, as spliceEntries does", () => {
    const groups = groupsOf(ITEM_FIELDS, ranked);
    const [symbol] = [...groups.keys()];
    const kept = groups.get(symbol!)!;
    const extra = { ...kept[0]!, id: `${symbol}-extra-leg`, apr: (kept[0]!.apr + kept.at(-1)!.apr) / 2 };
    const next = spliceGroups(ITEM_FIELDS, groups, new Set(), [extra]);
    expect(next.get(symbol!)).toEqual(inSetOrder([...kept, extra]));
    expect(mergeGroups(ITEM_FIELDS, next)).toEqual(spliceEntries(ITEM_FIELDS, ranked, new Set(), [extra]));
  });
});
