import { describe, expect, it } from "vitest";
import { marketKey } from "../model/market-average";
import type { MarketSnapshot } from "../model/types";
import { wideMarket, WIDE_VENUES } from "@/tests/support/market/wide-market";
import { countingTurns } from "@/tests/support/event-loop-turns";
import { columnsOf, itemsOf } from "./encoding/columns";
import { rankOpportunities } from "./rank-opportunities";
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
    const items = big.items;
    expect(items).toEqual(many);
    for (const item of items) expect(big.jsonOf(item, freshness)).toBe(JSON.stringify(served(item)));
    expect(big.cachedJsonItems).toBe(MAX_CACHED_JSON);
    const past = items.at(-1)!;
    expect(big.jsonOf(past, freshness)).toBe(JSON.stringify(served(past)));
    expect(big.cachedJsonItems).toBe(MAX_CACHED_JSON);
    // An item not of the set (not built by it) is served alike, its JSON not kept.
    expect(big.jsonOf(many[0]!, freshness)).toBe(JSON.stringify(served(many[0]!)));
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

describe("OpportunitySnapshot's -apr order", () => {
  const byApr = (list: readonly Opportunity[]) => [...list].sort((a, b) => (a.apr !== b.apr ? b.apr - a.apr : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const ids = (set: OpportunitySnapshot) => queryOpportunities(set, { limit: 100_000, offset: 0, sort: "-apr" }).items.map((o) => o.id);

  it("serves a set held in ranked order as it is for -apr, and sorts one that is not", () => {
    const ranked = byApr(opportunities);
    // Ties by id are part of the order: two items of equal APR, in id order.
    const tied = [{ ...ranked[0]!, id: "ZZ-b-a", apr: 1_000 }, { ...ranked[1]!, id: "ZZ-a-b", apr: 1_000 }];
    const inOrder = byApr([...ranked, ...tied]);
    expect(ids(new OpportunitySnapshot(inOrder, asOf, false))).toEqual(inOrder.map((o) => o.id));
    expect(ids(new OpportunitySnapshot([...inOrder].reverse(), asOf, false))).toEqual(inOrder.map((o) => o.id));
    // A tie out of id order is not taken for ranked order either.
    const swapped = [...inOrder];
    const at = swapped.findIndex((o) => o.id === "ZZ-a-b");
    [swapped[at], swapped[at + 1]] = [swapped[at + 1]!, swapped[at]!];
    expect(ids(new OpportunitySnapshot(swapped, asOf, false))).toEqual(inOrder.map((o) => o.id));
  });
});

describe("OpportunitySnapshot.spliced", () => {
  const { snapshots: all, ...history } = wideMarket(16);
  const setAsOf = "2026-09-27T13:30:00.000Z";
  const at = { at: Date.parse(setAsOf) + MINUTE, staleAfterMs: 3 * MINUTE };
  const key = (s: MarketSnapshot) => marketKey(s.exchange, s.market);
  const rankedColumns = (market: readonly MarketSnapshot[]) => rankOpportunities(market, history).columns;
  const ranked = (market: readonly MarketSnapshot[]) => itemsOf(rankedColumns(market));
  /** A deterministic random in [0, 1). */
  let state = 7;
  const random = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;

  /** Every page of `filters` over every sort, from both sets: the same items, totals and JSON. */
  const expectSameAnswers = (spliced: OpportunitySnapshot, fresh: OpportunitySnapshot, symbols: readonly (string | undefined)[]) => {
    for (const sort of SORTS)
      for (const symbol of symbols)
        for (const exchange of [undefined, WIDE_VENUES[2]!])
          for (const exchanges of [undefined, WIDE_VENUES.slice(0, 5)])
            for (const min_apr of [undefined, 3])
              for (const offset of [0, 37, 1_000_000]) {
                const filter: OpportunityFilter = { limit: 50, offset, sort, symbol, exchange, exchanges, min_apr };
                const [a, b] = [queryOpportunities(spliced, filter), queryOpportunities(fresh, filter)];
                expect({ ...a, items: a.items.map((o) => o.id) }, JSON.stringify(filter)).toEqual({ ...b, items: b.items.map((o) => o.id) });
                expect(spliced.pageJson(a, at)).toBe(fresh.pageJson(b, at));
              }
  };

  it("gives batch by batch the items, pages and JSON of the set ranked afresh, an asset vanishing and a new one coming", () => {
    const late = new Set(["A14", "A15"]);
    let market = all.filter((s) => !late.has(s.base));
    let spliced = new OpportunitySnapshot(ranked(market), setAsOf, false);
    // A second line of sets whose whole list is not read until the end: it is merged from the groups then.
    let grouped = spliced;
    // And a third whose list is read every third batch: spliced through the batches since.
    let everyThird = spliced;
    const assets = [...new Set(all.map((s) => s.base))];
    for (let batch = 0; batch < 10; batch++) {
      const bases = new Set(Array.from({ length: 1 + Math.floor(random() * 4) }, () => assets[Math.floor(random() * 14)]!));
      const byKey = new Map(market.map((s) => [key(s), s]));
      if (batch === 3) bases.add("A5"); // every market of A5 delisted
      if (batch === 5) bases.add("A14"); // a new asset listed
      for (const s of all) {
        if (!bases.has(s.base)) continue;
        if (s.base === "A5" && batch >= 3) byKey.delete(key(s));
        else byKey.set(key(s), { ...s, fundingRate: s.fundingRate === null ? null : s.fundingRate + (random() - 0.5) * 0.0004, observedAt: s.observedAt + batch * 1_000 });
      }
      market = [...byKey.values()];
      const replacement = rankedColumns(market.filter((s) => bases.has(s.base)));
      // This line's list is spliced from the list before, built each batch.
      spliced = spliced.spliced(bases, replacement);
      grouped = grouped.spliced(bases, replacement);
      everyThird = everyThird.spliced(bases, replacement);
      const fresh = new OpportunitySnapshot(ranked(market), setAsOf, false);
      expect(spliced.items).toEqual(fresh.items);
      if (batch % 3 === 2) expect(everyThird.items).toEqual(fresh.items);
      for (const asset of assets) expect(grouped.groupOf(asset)).toEqual(fresh.items.filter((o) => o.symbol === asset));
      if (batch === 3) expect(spliced.groupOf("A5")).toEqual([]);
      if (batch === 5) expect(spliced.groupOf("A14").length).toBeGreaterThan(0);
      if (batch === 3 || batch === 5) expectSameAnswers(spliced, fresh, [undefined, "A1", "A5", "A14", [...bases][0], "NOSUCH"]);
      for (const o of fresh.items.filter((_, i) => i % 97 === 0)) expect(spliced.byId(o.id)).toEqual(o);
      expect(spliced.byId("A5-venuea-venueb")).toBeUndefined();
    }
    expect(grouped.items).toEqual(spliced.items);
    expectSameAnswers(grouped, new OpportunitySnapshot(ranked(market), setAsOf, false), [undefined, "A3"]);
  });

  it("shares its items' cached JSON with the set it was spliced from, and drops the replaced items'", () => {
    const market = all.filter((s) => s.base === "A1" || s.base === "A2");
    const before = new OpportunitySnapshot(ranked(market), setAsOf, false);
    const page = queryOpportunities(before, { limit: 1_000, offset: 0, sort: "-apr" });
    before.pageJson(page, at);
    const a2 = page.items.filter((o) => o.symbol === "A2").length;
    expect(before.cachedJsonItems).toBe(page.items.length);
    const after = before.spliced(new Set(["A1"]), rankedColumns(market.filter((s) => s.base === "A1")));
    // The A1 items' texts are gone with them; A2's are the same items, their texts kept.
    expect(after.cachedJsonItems).toBe(a2);
    const kept = queryOpportunities(after, { limit: 1_000, offset: 0, sort: "-apr", symbol: "A2" });
    expect(kept.items).toEqual(page.items.filter((o) => o.symbol === "A2"));
    expect(kept.items.every((o, i) => o === page.items.filter((p) => p.symbol === "A2")[i])).toBe(true);
    after.pageJson(kept, at);
    expect(after.cachedJsonItems).toBe(a2);
    after.pageJson(queryOpportunities(after, { limit: 1_000, offset: 0, sort: "-apr" }), at);
    expect(after.cachedJsonItems).toBe(page.items.length);
  });

  it("keeps at most MAX_CACHED_JSON texts over the sets spliced one from another", () => {
    const [first] = opportunities;
    if (!first) throw new Error("no opportunity");
    const many = (prefix: string) => Array.from({ length: MAX_CACHED_JSON / 2 + 10 }, (_, i) => ({ ...first, symbol: prefix, id: `${prefix}-x${i}-y` }));
    let set = new OpportunitySnapshot(many("A"), asOf, false);
    for (const item of set.items) set.jsonOf(item, freshness);
    expect(set.cachedJsonItems).toBe(MAX_CACHED_JSON / 2 + 10);
    set = set.spliced(new Set(), columnsOf(many("B")));
    for (const item of set.items) expect(set.jsonOf(item, freshness)).toBe(JSON.stringify(served(item)));
    expect(set.cachedJsonItems).toBe(MAX_CACHED_JSON);
    // A's items replaced: their texts no longer count, and B's are cached as they are served.
    set = set.spliced(new Set(["A"]), columnsOf([]));
    expect(set.cachedJsonItems).toBe(MAX_CACHED_JSON / 2 - 10);
    for (const item of set.items) set.jsonOf(item, freshness);
    expect(set.cachedJsonItems).toBe(MAX_CACHED_JSON / 2 + 10);
    expect(set.byId("B-x3-y")?.id).toBe("B-x3-y");
  });
});

describe("OpportunitySnapshot.rankedInSlices", () => {
  it("holds a ranked set as a snapshot of its items does, served from its columns, its groups built in slices", async () => {
    const { snapshots, ...history } = wideMarket(100);
    const columns = rankOpportunities(snapshots, history).columns;
    const items = itemsOf(columns);
    const whole = new OpportunitySnapshot(items, asOf, false);
    const { result: sliced, turns } = await countingTurns(() => OpportunitySnapshot.rankedInSlices(columns, asOf, false, 0));

    expect(turns).toBeGreaterThan(2);
    expect(sliced.count).toBe(items.length);
    expect(sliced.items).toEqual(whole.items);
    for (const symbol of ["A0", "A57", "A99"]) expect(sliced.groupOf(symbol)).toEqual(whole.groupOf(symbol));
    expect(sliced.byId(items[123]!.id)).toEqual(items[123]);
    // Built once: the same item for the same entry.
    expect(sliced.byId(items[123]!.id)).toBe(sliced.byId(items[123]!.id));
    // A batch spliced into it: the asset gone from both alike.
    const gone = new Set(["A57"]);
    expect(sliced.spliced(gone, columnsOf([])).items).toEqual(whole.spliced(gone, columnsOf([])).items);
    expect(sliced.spliced(gone, columnsOf([])).groupOf("A57")).toEqual([]);
  });

  it("takes the carried assets' pairs from theirs, as a set spliced with them", async () => {
    const { snapshots, ...history } = wideMarket(30);
    const columns = rankOpportunities(snapshots, history).columns;
    const bases = new Set(["A3", "A17", "NEW"]);
    const moved = snapshots.filter((s) => bases.has(s.base)).map((s) => ({ ...s, fundingRate: (s.fundingRate ?? 0) * -2 + 0.0001 }));
    const pairs = rankOpportunities(moved, history).columns;
    const carried = await OpportunitySnapshot.rankedInSlices(columns, asOf, false, 0, { bases, pairs });
    const spliced = new OpportunitySnapshot(itemsOf(columns), asOf, false).spliced(bases, pairs);
    expect(carried.items).toEqual(spliced.items);
    expect(carried.groupOf("A17")).toEqual(itemsOf(pairs).filter((o) => o.symbol === "A17"));
  });

  it("holds a stored set in set order as ranked, checking its order in slices, and one in another order sorted when asked", async () => {
    const { snapshots, ...history } = wideMarket(100);
    const columns = rankOpportunities(snapshots, history).columns;
    const items = itemsOf(columns);
    const { result: stored, turns } = await countingTurns(() => OpportunitySnapshot.storedInSlices(columns, asOf, false, 0));
    expect(turns).toBeGreaterThan(2);
    expect(stored.items).toEqual(items);
    const reversed = await OpportunitySnapshot.storedInSlices(columnsOf([...items].reverse()), asOf, false, 0);
    expect(reversed.items.map((o) => o.id)).not.toEqual(items.map((o) => o.id));
    expect(queryOpportunities(reversed, { limit: 100_000, offset: 0, sort: "-apr" }).items).toEqual(items);
    expect(reversed.groupOf("A57")).toEqual(stored.groupOf("A57"));
  });

  it("finds an item by an id other than its pair's standard one", async () => {
    const { snapshots, ...history } = wideMarket(20);
    const items = itemsOf(rankOpportunities(snapshots, history).columns);
    const custom = items.map((item, i) => (i === 7 ? { ...item, id: "hand-made" } : item));
    const checked = await OpportunitySnapshot.rankedInSlices(columnsOf(custom), asOf, false, 0);
    expect(checked.byId("hand-made")).toEqual(custom[7]);
    expect(checked.byId(items[8]!.id)).toEqual(items[8]);
  });
});
