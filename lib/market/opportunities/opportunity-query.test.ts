import { describe, expect, it } from "vitest";
import { servedAt } from "../model/leg-freshness";
import { MAX_CACHED_JSON, OpportunitySnapshot, queryOpportunities, SORTS, type OpportunityFilter } from "./opportunity-query";
import { sandboxOpportunities } from "../sandbox/sandbox-opportunities";
import { SANDBOX_EDGE_CASES } from "../sandbox/edge-cases";
import { UNKNOWN_PERSISTENCE, type Opportunity, type Persistence } from "../model/types";

const { opportunities, asOf } = sandboxOpportunities(new Date("2026-11-21T16:00:00Z"));
const snapshot = new OpportunitySnapshot(opportunities, asOf, false);
const MINUTE = 60_000;
/** The sandbox's own threshold: its stale venue's legs are stale, the others are not, a minute after the set. */
const freshness = { at: Date.parse(asOf) + MINUTE, staleAfterMs: 3 * MINUTE };
const served = (o: Opportunity, f = freshness) => servedAt(o, asOf, f);

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

  it.each(filters)("is JSON.stringify of the page as served, byte for byte: %o", (filter) => {
    const page = queryOpportunities(snapshot, filter);
    expect(snapshot.pageJson(page, freshness)).toBe(JSON.stringify({ ...page, items: page.items.map((o) => served(o)) }));
  });

  it("puts each answer's own leg ages into the cached JSON, the cache reused from one moment to the next", () => {
    const page = queryOpportunities(snapshot, { limit: 20, offset: 0, sort: "-apr" });
    const later = { ...freshness, at: freshness.at + 7_400 };
    const first = JSON.parse(snapshot.pageJson(page, freshness)) as { items: { long: { age_seconds: number | null } }[] };
    const second = JSON.parse(snapshot.pageJson(page, later)) as typeof first;
    expect(snapshot.pageJson(page, later)).toBe(JSON.stringify({ ...page, items: page.items.map((o) => served(o, later)) }));
    const known = first.items.findIndex((item) => item.long.age_seconds !== null);
    expect(known).toBeGreaterThanOrEqual(0);
    expect(second.items[known]!.long.age_seconds).toBe(first.items[known]!.long.age_seconds! + 7);
  });

  it("reuses an answer until a leg turns stale, and at most a second, as its ages move", () => {
    const page = queryOpportunities(snapshot, { limit: 20, offset: 0, sort: "-apr" });
    expect(snapshot.validUntil(page.items, freshness)).toBe(freshness.at + 1_000);
    expect(snapshot.validUntil([], freshness)).toBeUndefined();
  });

  it("keeps the JSON of at most MAX_CACHED_JSON items, and serialises the others on each call", () => {
    const [first] = opportunities;
    if (!first) throw new Error("no opportunity");
    const many = Array.from({ length: MAX_CACHED_JSON + 10 }, (_, i) => ({ ...first, id: `A${i}-binance-okx` }));
    const big = new OpportunitySnapshot(many, asOf, false);
    for (const item of many) expect(big.jsonOf(item, freshness)).toBe(JSON.stringify(served(item)));
    expect(big.cachedJsonItems).toBe(MAX_CACHED_JSON);
    const past = many.at(-1)!;
    expect(big.jsonOf(past, freshness)).toBe(JSON.stringify(served(past)));
    expect(big.cachedJsonItems).toBe(MAX_CACHED_JSON);
  });

  it("covers pages with items and without, with stale legs and without", () => {
    expect(queryOpportunities(snapshot, filters[0]!).items).toHaveLength(50);
    expect(queryOpportunities(snapshot, filters[4]!).items).toHaveLength(0);
    const all = queryOpportunities(snapshot, { limit: 100, offset: 0, sort: "-apr", exchange: SANDBOX_EDGE_CASES.staleVenue });
    expect(all.items.length).toBeGreaterThan(0);
    expect(all.items.every((o) => served(o).stale)).toBe(true);
    expect(queryOpportunities(snapshot, filters[0]!).items.some((o) => !served(o).stale)).toBe(true);
  });
});

describe("OpportunitySnapshot's stale flags", () => {
  const item = opportunities.find((o) => o.long.exchange !== SANDBOX_EDGE_CASES.staleVenue && o.short.exchange !== SANDBOX_EDGE_CASES.staleVenue)!;
  const observed = Date.parse(asOf);
  const at = (ms: number) => ({ at: ms, staleAfterMs: freshness.staleAfterMs });

  it("serves each state of an item's legs with its own JSON, as the clock passes the threshold", () => {
    const fresh = at(observed + freshness.staleAfterMs);
    const stale = at(observed + freshness.staleAfterMs + 1);
    expect(snapshot.served(item, fresh)).toMatchObject({ stale: false, long: { stale: false }, short: { stale: false } });
    expect(snapshot.served(item, stale)).toMatchObject({ stale: true, long: { stale: true }, short: { stale: true } });
    expect(JSON.parse(snapshot.jsonOf(item, fresh))).toEqual(snapshot.served(item, fresh));
    expect(JSON.parse(snapshot.jsonOf(item, stale))).toEqual(snapshot.served(item, stale));
    // The state read a second time is the text kept for it, not the other state's.
    expect(snapshot.jsonOf(item, fresh)).toBe(JSON.stringify(served(item, fresh)));
  });

  it("says when the next leg of a page turns stale, and nothing once all are", () => {
    const page = queryOpportunities(snapshot, { limit: 100, offset: 0, sort: "-apr" }).items;
    expect(snapshot.nextStaleAt(page, at(observed))).toBe(observed + freshness.staleAfterMs + 1);
    expect(snapshot.nextStaleAt(page, at(observed + freshness.staleAfterMs + 1))).toBeUndefined();
  });

  it("judges a leg of a set stored before legs carried observed_at by the set's data_as_of", () => {
    const old = { ...item, long: { ...item.long, observed_at: null }, short: { ...item.short, observed_at: null } };
    const set = new OpportunitySnapshot([old], "2026-11-21T15:00:00.000Z", false);
    expect(set.observedAt(old)).toEqual([Date.parse("2026-11-21T15:00:00.000Z"), Date.parse("2026-11-21T15:00:00.000Z")]);
    expect(set.served(old, at(Date.parse("2026-11-21T15:03:00.000Z"))).stale).toBe(false);
    expect(set.served(old, at(Date.parse("2026-11-21T15:03:00.001Z"))).stale).toBe(true);
  });
});

describe("queryOpportunities' venue filters", () => {
  it("keeps with `exchanges` only pairs whose both legs are among them, and with `exchange` those with either leg on it", () => {
    const venues = ["binance", "okx"];
    const both = queryOpportunities(snapshot, { limit: 100, offset: 0, sort: "-apr", exchanges: venues });
    expect(both.total).toBeGreaterThan(0);
    for (const o of both.items) expect(venues).toEqual(expect.arrayContaining([o.long.exchange, o.short.exchange]));
    const either = queryOpportunities(snapshot, { limit: 100, offset: 0, sort: "-apr", exchange: "okx" });
    expect(either.total).toBeGreaterThan(both.total);
    expect(both.total).toBe(opportunities.filter((o) => venues.includes(o.long.exchange) && venues.includes(o.short.exchange)).length);
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

describe("OpportunitySnapshot.inOrder", () => {
  const byApr = (list: readonly Opportunity[]) => [...list].sort((a, b) => (a.apr !== b.apr ? b.apr - a.apr : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  it("serves a set held in ranked order as it is for -apr, and sorts one that is not", () => {
    const ranked = byApr(opportunities);
    // Ties by id are part of the order: two items of equal APR, in id order.
    const tied = [{ ...ranked[0]!, id: "ZZ-b-a", apr: 1_000 }, { ...ranked[1]!, id: "ZZ-a-b", apr: 1_000 }];
    const inOrder = byApr([...ranked, ...tied]);
    const held = new OpportunitySnapshot(inOrder, asOf, false);
    expect(held.inOrder("-apr")).toBe(held.items);
    const shuffled = [...inOrder].reverse();
    const other = new OpportunitySnapshot(shuffled, asOf, false);
    expect(other.inOrder("-apr")).not.toBe(other.items);
    expect(other.inOrder("-apr").map((o) => o.id)).toEqual(inOrder.map((o) => o.id));
    // A tie out of id order is not taken for ranked order either.
    const swapped = [...inOrder];
    const at = swapped.findIndex((o) => o.id === "ZZ-a-b");
    [swapped[at], swapped[at + 1]] = [swapped[at + 1]!, swapped[at]!];
    expect(new OpportunitySnapshot(swapped, asOf, false).inOrder("-apr").map((o) => o.id)).toEqual(inOrder.map((o) => o.id));
  });
});
