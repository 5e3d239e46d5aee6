import { describe, expect, it } from "vitest";
import { OpportunitySnapshot, queryOpportunities, SORTS, type OpportunityFilter } from "./opportunity-query";
import { sandboxOpportunities } from "./sandbox/sandbox-opportunities";
import { UNKNOWN_PERSISTENCE, type Opportunity, type Persistence } from "./types";

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

  it("covers pages with items and without", () => {
    expect(queryOpportunities(snapshot, filters[0]!).items).toHaveLength(50);
    expect(queryOpportunities(snapshot, filters[4]!).items).toHaveLength(0);
  });
});

describe("sort=stability", () => {
  const base = opportunities[0]!;
  const item = (id: string, persistence: Partial<Persistence>): Opportunity => ({ ...base, id, persistence: { ...UNKNOWN_PERSISTENCE, ...persistence } });
  const items = [
    item("A", { paid_share_7d: 0.9, apr_stddev_7d: 4 }),
    item("B", { paid_share_7d: 1, apr_stddev_7d: 12 }),
    item("C", {}), // no history
    item("D", { paid_share_7d: 0.9, apr_stddev_7d: 2.5 }),
    item("E", { paid_share_7d: 1, apr_stddev_7d: 3 }),
    item("F", { paid_share_7d: 0.9, apr_stddev_7d: null }), // settled enough, observed too little
    item("G", { paid_share_7d: 0.9, apr_stddev_7d: 2.5 }), // D's twin: id decides
    item("H", { paid_share_7d: null, apr_stddev_7d: 1 }),
  ];
  const order = (sort: "stability" | "-stability") =>
    queryOpportunities(new OpportunitySnapshot(items, asOf, false), { limit: 100, offset: 0, sort }).items.map((o) => o.id);

  it("lists the highest paid share first, then the lowest deviation, unknowns last, ties by id", () => {
    // H and C both lack a paid share; H's deviation is known, so it comes before C, which has nothing.
    expect(order("stability")).toEqual(["E", "B", "D", "G", "A", "F", "H", "C"]);
  });

  it("reversed by -stability, unknowns still last and ties still by id", () => {
    expect(order("-stability")).toEqual(["A", "D", "G", "F", "B", "E", "H", "C"]);
  });

});
