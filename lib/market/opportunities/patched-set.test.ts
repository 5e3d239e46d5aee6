import { beforeAll, describe, expect, it } from "vitest";
import { countingTurns } from "@/tests/support/event-loop-turns";
import { everyPair } from "@/tests/support/market/every-pair";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { sandboxOpportunities } from "../sandbox/sandbox-opportunities";
import { marketKey } from "../model/market-average";
import type { MarketSnapshot, Opportunity } from "../model/types";
import { replaySampleMarket } from "../sample/replay-sample-market";
import { columnsOf, itemsOf, type OpportunityColumns } from "./encoding/columns";
import { PatchedSet } from "./patched-set";
import { groupsOf, mergeGroups, spliceGroups } from "./opportunity-groups";
import { OpportunitySnapshot } from "./opportunity-query";
import type { PartialAssets } from "./pair-scope";
import { rankOpportunities } from "./rank-opportunities";
import { spliceColumns, spliceEntries } from "./splice-opportunities";
import { ITEM_FIELDS } from "@/tests/support/market/item-fields";

// The offline sample: every venue's recorded answer parsed through the real connectors.
let sample: MarketSnapshot[];

beforeAll(async () => {
  sample = (await replaySampleMarket()).snapshots;
}, 60_000); // the sample is parsed through every connector: slow on a busy machine

/** A deterministic random in [0, 1). */
function randomFrom(seed: number) {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

const rank = (snapshots: readonly MarketSnapshot[]) => rankOpportunities(snapshots).columns;
const key = (s: MarketSnapshot) => marketKey(s.exchange, s.market);
const byId = (items: Opportunity[]) => [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

describe("PatchedSet", () => {
  it("equals successive spliceColumns, and a fresh ranking, over random batches with an asset that goes and one that is new", async () => {
    const random = randomFrom(11);
    const assets = [...new Set(sample.map((s) => s.base))];
    const market = new Map(sample.map((s) => [key(s), s]));
    const round = rank(sample);
    let [patched, spliced] = [PatchedSet.of(round), round];
    const earlier: { set: PatchedSet; items: Opportunity[] }[] = [];
    const [gone, kept] = [assets[3]!, assets[5]!];
    for (let n = 0; n < 12; n++) {
      const bases = new Set(Array.from({ length: 1 + Math.floor(random() * 6) }, () => assets[Math.floor(random() * assets.length)]!));
      bases.add(kept); // one asset re-ranked in every batch: its layer is replaced again and again
      for (const s of [...market.values()]) {
        if (!bases.has(s.base)) continue;
        market.set(key(s), { ...s, fundingRate: (s.fundingRate ?? 0) + 0.0004 * (random() - 0.5), observedAt: s.observedAt + n * 1_000 });
      }
      if (n === 4) {
        // Every market of an asset goes: its pairs all close.
        for (const s of [...market.values()]) if (s.base === gone) market.delete(key(s));
        bases.add(gone);
      }
      if (n === 6) {
        // A new asset on two venues: a pair the round never had.
        for (const s of [
          makeSnapshot({ exchange: "binance", base: "ZZNEW", market: "ZZNEW/USDT:USDT", fundingRate: 0.002 }),
          makeSnapshot({ exchange: "okx", base: "ZZNEW", market: "ZZNEW/USDT:USDT", fundingRate: -0.001 }),
        ])
          market.set(key(s), s);
        bases.add("ZZNEW");
      }
      const items = rank([...market.values()].filter((s) => bases.has(s.base)));
      const before = spliced;
      // The pairs a batch's events are diffed against: those of its assets before it.
      expect(itemsOf(patched.rowsOf(bases))).toEqual(itemsOf(before).filter((o) => bases.has(o.symbol)));
      earlier.push({ set: patched, items: itemsOf(before) });
      patched = patched.patched(bases, items);
      spliced = spliceColumns(spliced, bases, items);
      // The same pairs as runs of rows where they lie, in no particular order.
      const runs = await patched.runsInSlices();
      expect(runs.length).toBeGreaterThan(1);
      const itemsOfRun = ({ columns, rows }: (typeof runs)[number]) => {
        const all = itemsOf(columns);
        return rows ? Array.from(rows, (row) => all[row]!) : all;
      };
      expect(byId(runs.flatMap(itemsOfRun))).toEqual(byId(itemsOf(spliced)));
      expect(itemsOf(everyPair(patched))).toEqual(itemsOf(spliced));
    }
    const fresh = itemsOf(rank([...market.values()]));
    expect(itemsOf(everyPair(patched))).toEqual(fresh);
    expect(fresh.some((o) => o.symbol === gone)).toBe(false);
    expect(fresh.filter((o) => o.symbol === "ZZNEW")).toHaveLength(1);
    // Immutable: every earlier set is still the set it was.
    for (const { set, items } of earlier) expect(itemsOf(everyPair(set))).toEqual(items);
    expect(patched.roundSet).toBe(round);
  });

  it("gives some assets' pairs in slices, giving the event loop turns, as rowsOf gives them at once", async () => {
    const round = rank(sample);
    // The assets with the most pairs first.
    const pairs = new Map<string, number>();
    for (const o of itemsOf(round)) pairs.set(o.symbol, (pairs.get(o.symbol) ?? 0) + 1);
    const assets = [...pairs.keys()].sort((a, b) => pairs.get(b)! - pairs.get(a)!);
    let set = PatchedSet.of(round);
    for (let n = 0; n < 3; n++) {
      const bases = new Set([assets[n * 2]!, assets[n * 2 + 1]!]);
      set = set.patched(bases, rank(sample.filter((s) => bases.has(s.base)).map((s) => ({ ...s, fundingRate: (s.fundingRate ?? 0) * (n + 2) }))));
    }
    // The patched assets and as many of the round's: rows of four columns.
    const some = new Set(assets.slice(0, 12));
    expect(set.rowsOf(some).count).toBeGreaterThan(100);
    const { result, turns } = await countingTurns(() => set.rowsOfInSlices(some, 0));
    expect(turns).toBeGreaterThan(1);
    expect(itemsOf(result)).toEqual(itemsOf(set.rowsOf(some)));
    expect(itemsOf(result)).toEqual(itemsOf(everyPair(set)).filter((o) => some.has(o.symbol)));
  });

  it("answers the round's set itself, or a batch's columns, when asked for all of their pairs", async () => {
    const round = rank(sample);
    const set = PatchedSet.of(round);
    const all = new Set(sample.map((s) => s.base));
    expect(set.rowsOf(all)).toBe(round);
    expect(await set.rowsOfInSlices(all)).toBe(round);
    const some = new Set([itemsOf(round)[0]!.symbol, itemsOf(round).at(-1)!.symbol]);
    expect(itemsOf(set.rowsOf(some))).toEqual(itemsOf(round).filter((o) => some.has(o.symbol)));
    expect(set.rowsOf(new Set(["NOT-LISTED"])).count).toBe(0);
    // A batch re-ranking every asset: the set is its pairs.
    const moved = sample.map((s) => ({ ...s, fundingRate: (s.fundingRate ?? 0) * 1.5 }));
    const items = rank(moved);
    const everything = set.patched(all, items);
    expect(everything.rowsOf(all)).toBe(items);
    expect(await everything.rowsOfInSlices(all)).toBe(items);
  });

  it("orders pairs of equal APR from the round and from batches by id, in code-unit order, ids carried", async () => {
    const [template] = sandboxOpportunities(new Date("2026-11-20T12:00:00Z")).opportunities as Opportunity[];
    const item = (symbol: string, id: string, apr: number): Opportunity => ({ ...template!, symbol, id, apr });
    const round = columnsOf([item("AAA", "AAA-x", 10), item("BBB", "BBB-x", 10), item("CCC", "CCC-x", 5)]);
    const batch = (items: Opportunity[]): OpportunityColumns => columnsOf(items);
    const first = PatchedSet.of(round).patched(new Set(["BBB"]), batch([item("BBB", "BBB-w", 10), item("BBB", "BBB-y", 10)]));
    const second = first.patched(new Set(["AAA", "CCC"]), batch([item("CCC", "CCC-a", 20), item("AAA", "AAA-z", 10)]));
    const ids = (set: OpportunityColumns) => itemsOf(set).map((o) => o.id);
    expect(ids(everyPair(first))).toEqual(["AAA-x", "BBB-w", "BBB-y", "CCC-x"]);
    expect(ids(everyPair(second))).toEqual(["CCC-a", "AAA-z", "BBB-w", "BBB-y"]);
    expect(ids(await second.rowsOfInSlices(new Set(["AAA", "BBB", "CCC"])))).toEqual(["CCC-a", "AAA-z", "BBB-w", "BBB-y"]);
    expect(ids(second.rowsOf(new Set(["BBB", "CCC"])))).toEqual(["CCC-a", "BBB-w", "BBB-y"]);
    let spliced = spliceColumns(round, new Set(["BBB"]), batch([item("BBB", "BBB-w", 10), item("BBB", "BBB-y", 10)]));
    spliced = spliceColumns(spliced, new Set(["AAA", "CCC"]), batch([item("CCC", "CCC-a", 20), item("AAA", "AAA-z", 10)]));
    expect(itemsOf(everyPair(second))).toEqual(itemsOf(spliced));
  });
  it("patches assets in part over batches, each moving one venue's markets: equal to a fresh ranking in the set, the columns, the items, the groups and a served set", async () => {
    const random = randomFrom(5);
    const market = new Map(sample.map((s) => [key(s), s]));
    const venues = [...new Set(sample.map((s) => s.exchange))];
    const round = rank(sample);
    let [patched, spliced, items, groups] = [PatchedSet.of(round), round, itemsOf(round), groupsOf(ITEM_FIELDS, itemsOf(round))];
    let served = new OpportunitySnapshot(itemsOf(round), null, false);
    let [lastVenue, lastBases] = ["", new Set<string>()];
    const everPatched = new Set<string>();
    for (let n = 0; n < 8; n++) {
      // One venue's markets move (its stream's second); every asset it lists is re-ranked in part.
      const venue = venues[Math.floor(random() * venues.length)]!;
      lastVenue = venue;
      const bases = new Set<string>();
      for (const s of [...market.values()]) {
        if (s.exchange !== venue) continue;
        market.set(key(s), { ...s, fundingRate: (s.fundingRate ?? 0) + 0.0004 * (random() - 0.5), observedAt: s.observedAt + (n + 1) * 1_000 });
        bases.add(s.base);
      }
      const partial: PartialAssets = new Map([...bases].map((base) => [base, new Set([venue])]));
      lastBases = bases;
      for (const base of bases) everPatched.add(base);
      const batch = rankOpportunities([...market.values()].filter((s) => bases.has(s.base)), { partial }).columns;
      const fresh = itemsOf(rank([...market.values()]));
      // The batch holds only the pairs with a leg on the venue; the events compare those alone.
      const touches = (o: Opportunity) => bases.has(o.symbol) && [o.long.exchange, o.short.exchange].includes(venue);
      expect(itemsOf(batch)).toEqual(fresh.filter(touches));
      expect(itemsOf(patched.rowsOf(bases, partial))).toEqual(items.filter(touches));
      patched = patched.patched(bases, batch, partial);
      spliced = spliceColumns(spliced, bases, batch, partial);
      items = spliceEntries(ITEM_FIELDS, items, bases, itemsOf(batch), undefined, partial);
      groups = spliceGroups(ITEM_FIELDS, groups, bases, itemsOf(batch), partial);
      served = served.spliced(bases, batch, partial);
      expect(itemsOf(everyPair(patched))).toEqual(fresh);
      expect(itemsOf(spliced)).toEqual(fresh);
      expect(items).toEqual(fresh);
      expect(mergeGroups(ITEM_FIELDS, groups)).toEqual(fresh);
      expect(served.items).toEqual(fresh);
      expect(served.count).toBe(fresh.length);
    }
    // Carried onto a new round, the pairs a batch left in the old round's columns are copied: that
    // round's memory is used again (ColumnSlabs), and the carried set must not change with it.
    const next = rank([...market.values()].map((s) => ({ ...s, fundingRate: (s.fundingRate ?? 0) * 1.5 })));
    const before = itemsOf(spliceColumns(next, everPatched, patched.rowsOf(everPatched)));
    const carried = PatchedSet.carrying(next, patched, { bases: everPatched, partial: new Map() });
    // Carried in part (the last batch's pairs), the rest is the new round's, as a reader applying its patch has it.
    const partial: PartialAssets = new Map([...lastBases].map((asset) => [asset, new Set([lastVenue])]));
    const inPart = PatchedSet.carrying(next, patched, { bases: lastBases, partial });
    const expected = itemsOf(spliceColumns(next, lastBases, patched.rowsOf(lastBases, partial), partial));
    round.apr.values.fill(0);
    (round.legs as unknown[]).length = 0;
    expect(itemsOf(everyPair(carried))).toEqual(before);
    expect(itemsOf(everyPair(inPart))).toEqual(expected);
    // And in slices: the carried assets' pairs a round's served set takes.
    expect(itemsOf(await carried.rowsOfInSlices(everPatched, 0))).toEqual(before.filter((o) => everPatched.has(o.symbol)));
    expect(itemsOf(await inPart.rowsOfInSlices(lastBases, 0))).toEqual(expected.filter((o) => lastBases.has(o.symbol)));
  });
});
