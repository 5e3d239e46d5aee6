import { describe, expect, it } from "vitest";
import { MAX_CACHED_JSON, OpportunitySnapshot, queryOpportunities, SORTS, type OpportunityFilter } from "./opportunity-query";
import { sandboxOpportunities } from "./sandbox/sandbox-opportunities";

const { opportunities, asOf } = sandboxOpportunities(new Date("2026-11-21T16:00:00Z"));
const snapshot = new OpportunitySnapshot(opportunities, asOf, false);

describe("OpportunitySnapshot.pageJson", () => {
  const filters: OpportunityFilter[] = [
    { limit: 50, offset: 0, sort: "-apr" },
    { limit: 1, offset: 3, sort: "open_interest", exchange: "okx" },
    { limit: 100, offset: 40, sort: "net_apr", min_apr: 5.5 },
    { limit: 10, offset: 0, sort: "-apr", symbol: "BTC" },
    { limit: 10, offset: 1_000_000, sort: "-apr" },
    { limit: 10, offset: 0, sort: "-apr", symbol: "NOSUCHASSET" },
    ...SORTS.map((sort) => ({ limit: 25, offset: 7, sort })),
  ];

  it.each(filters)("is JSON.stringify of the page, byte for byte: %o", (filter) => {
    const page = queryOpportunities(snapshot, filter);
    expect(snapshot.pageJson(page)).toBe(JSON.stringify(page));
  });

  it("keeps the JSON of at most MAX_CACHED_JSON items, and serialises the others on each call", () => {
    const [first] = opportunities;
    if (!first) throw new Error("no opportunity");
    const many = Array.from({ length: MAX_CACHED_JSON + 10 }, (_, i) => ({ ...first, id: `A${i}-binance-okx` }));
    const big = new OpportunitySnapshot(many, asOf, false);
    for (const item of many) expect(big.jsonOf(item)).toBe(JSON.stringify(item));
    expect(big.cachedJsonItems).toBe(MAX_CACHED_JSON);
    const past = many.at(-1)!;
    expect(big.jsonOf(past)).toBe(JSON.stringify(past));
    expect(big.cachedJsonItems).toBe(MAX_CACHED_JSON);
  });

  it("covers pages with items and without", () => {
    expect(queryOpportunities(snapshot, filters[0]!).items).toHaveLength(50);
    expect(queryOpportunities(snapshot, filters[4]!).items).toHaveLength(0);
  });
});
