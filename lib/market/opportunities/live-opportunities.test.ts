import { describe, expect, it } from "vitest";
import { countingTurns } from "@/tests/support/event-loop-turns";
import { everyPair } from "@/tests/support/market/every-pair";
import { wideMarket } from "@/tests/support/market/wide-market";
import { marketKey } from "../model/market-average";
import type { MarketSnapshot } from "../model/types";
import { hashText, unitOf } from "../sandbox/random";
import { itemsOf } from "./encoding/columns";
import { LiveOpportunities } from "./live-opportunities";
import { OpportunitySnapshot, queryOpportunities } from "./opportunity-query";
import type { PartialAssets } from "./pair-scope";
import { PatchedSet } from "./patched-set";
import { rankOpportunities } from "./rank-opportunities";
import { spliceColumns, spliceEntries } from "./splice-opportunities";
import { ITEM_FIELDS } from "@/tests/support/market/item-fields";

const AS_OF = new Date("2026-09-27T13:30:00Z");

describe("LiveOpportunities.applyRound", () => {
  it("serves the set it held while a round's items are built, then the round's with the batches committed meanwhile spliced in, in order", async () => {
    const { snapshots, ...history } = wideMarket(120);
    const first = rankOpportunities(snapshots.slice(0, 1_000), history).columns;
    const round = rankOpportunities(snapshots, history).columns;
    // A batch on the round's set: asset A3's rates moved.
    const moved = snapshots.filter((s) => s.base === "A3").map((s) => ({ ...s, fundingRate: (s.fundingRate ?? 0) + 0.0005 }));
    const batch = rankOpportunities(moved, history).columns;
    // And a second batch on that one: A4's.
    const movedAgain = snapshots.filter((s) => s.base === "A4").map((s) => ({ ...s, fundingRate: (s.fundingRate ?? 0) - 0.0004 }));
    const second = rankOpportunities(movedAgain, history).columns;
    // Any read of the database fails the test: everything comes from what was applied.
    const reads: string[] = [];
    const live = new LiveOpportunities(async () => {
      reads.push("db");
      throw new Error("no database in this test");
    });

    await live.applyRound({ version: 1, set: first, asOf: AS_OF }, 0);
    const held = await live.current();
    const building = live.applyRound({ version: 2, set: round, asOf: AS_OF }, 0);
    live.applyBatch({ version: 3, previousVersion: 2, bases: new Set(["A3"]), items: batch });
    live.applyBatch({ version: 4, previousVersion: 3, bases: new Set(["A4"]), items: second });
    expect(await live.current()).toBe(held);
    expect(live.heldVersion).toBe(1);

    // Its entries and groups are built a slice at a time, the event loop turning between.
    const { turns } = await countingTurns(() => building);
    expect(turns).toBeGreaterThan(2);

    await new Promise((resolve) => setImmediate(resolve));
    expect(live.heldVersion).toBe(4);
    const { items } = await live.current();
    expect(items).toHaveLength(round.count);
    const a3 = items.filter((o) => o.symbol === "A3");
    expect(a3.length).toBeGreaterThan(0);
    expect(a3.every((o) => o.long.funding_rate === moved.find((s) => s.exchange === o.long.exchange && s.market === o.long.market)?.fundingRate)).toBe(true);
    const a4 = items.filter((o) => o.symbol === "A4");
    expect(a4.length).toBeGreaterThan(0);
    expect(a4.every((o) => o.long.funding_rate === movedAgain.find((s) => s.exchange === o.long.exchange && s.market === o.long.market)?.fundingRate)).toBe(true);
    expect(reads).toEqual([]);
  });
});

describe("LiveOpportunities.applyRound with the pairs a round carried from batches", () => {
  const SEED = 36;
  const { snapshots, ...history } = wideMarket(60);
  const assets = [...new Set(snapshots.map((s) => s.base))];
  const venues = [...new Set(snapshots.map((s) => s.exchange))];
  const key = (s: MarketSnapshot) => marketKey(s.exchange, s.market);
  const rank = (markets: readonly MarketSnapshot[], partial?: PartialAssets) => rankOpportunities(markets, { ...history, ...(partial && { partial }) }).columns;
  const noDatabase = () =>
    new LiveOpportunities(async () => {
      throw new Error("no database in this test");
    });

  /**
   * Random batches on a round's set, as the publisher patches them (some assets whole, or one
   * venue's pairs of some), then a new round carrying them as `patchedSince` scopes them.
   */
  function roundAfterBatches() {
    const market = new Map(snapshots.map((s) => [key(s), s]));
    let patched = PatchedSet.of(rank(snapshots));
    const [whole, inPart] = [new Set<string>(), new Map<string, Set<string>>()];
    for (let n = 0; n < 10; n++) {
      const venue = n % 3 === 2 ? undefined : venues[Math.floor(unitOf(SEED, n) * venues.length)]!;
      const bases = new Set(Array.from({ length: 1 + (n % 4) }, (_, i) => assets[Math.floor(unitOf(SEED, n, i + 1) * assets.length)]!));
      const partial: PartialAssets = new Map(venue ? [...bases].map((asset) => [asset, new Set([venue])]) : []);
      for (const s of [...market.values()]) {
        if (!bases.has(s.base) || (venue && s.exchange !== venue)) continue;
        market.set(key(s), { ...s, fundingRate: (s.fundingRate ?? 0) + 0.0004 * (unitOf(SEED, n, hashText(key(s))) - 0.5), observedAt: s.observedAt + (n + 1) * 1_000 });
      }
      patched = patched.patched(bases, rank([...market.values()].filter((s) => bases.has(s.base)), partial), partial);
      for (const asset of bases) {
        if (!venue) whole.add(asset);
        else inPart.set(asset, new Set([...(inPart.get(asset) ?? []), venue]));
      }
    }
    const scope = { bases: new Set([...whole, ...inPart.keys()]), partial: new Map([...inPart].filter(([asset]) => !whole.has(asset))) };
    // The new round moved every rate: its own pairs of the carried assets are not the batches'.
    const next = rank([...market.values()].map((s) => ({ ...s, fundingRate: (s.fundingRate ?? 0) * 1.5 })));
    const carried = PatchedSet.carrying(next, patched, scope);
    // What a reader applying the kept batches' patches to the round's set holds.
    const expected = itemsOf(spliceColumns(next, scope.bases, patched.rowsOf(scope.bases, scope.partial), scope.partial));
    return { market, next, carried, expected, scope };
  }

  it("serves the round's set with those pairs spliced in: every current pair merged, item for item and in order, in slices", async () => {
    const { next, carried, expected, scope } = roundAfterBatches();
    expect(scope.partial.size).toBeGreaterThan(0);
    expect(scope.bases.size).toBeGreaterThan(scope.partial.size);
    // The whole patched set merged, as the served set was built before.
    expect(itemsOf(everyPair(carried))).toEqual(expected);
    const live = noDatabase();
    const bases = carried.patchedAssets;
    const { turns } = await countingTurns(() => live.applyRound({ version: 2, set: next, carried: { bases, pairs: carried.rowsOfInSlices(bases, 0) }, asOf: AS_OF }, 0));
    expect(turns).toBeGreaterThan(5);
    const served = await live.current();
    expect(served.items).toEqual(expected);
    expect(served.count).toBe(expected.length);
    for (const asset of bases) expect(served.groupOf(asset)).toEqual(expected.filter((o) => o.symbol === asset));
    expect(served.byId(expected.find((o) => bases.has(o.symbol))!.id)).toBeDefined();
  });

  it("splices a batch committed while the round's items are built after the carried pairs", async () => {
    const { market, next, carried, expected } = roundAfterBatches();
    const bases = carried.patchedAssets;
    const live = noDatabase();
    await live.applyRound({ version: 1, set: rank(snapshots), asOf: AS_OF }, 0);
    const building = live.applyRound({ version: 2, set: next, carried: { bases, pairs: carried.rowsOfInSlices(bases, 0) }, asOf: AS_OF }, 0);
    // A few slices into building it, a batch on the round's set: a carried asset and another one re-ranked whole.
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(live.heldVersion).toBe(1);
    const batchBases = new Set([[...bases][0]!, assets.find((asset) => !bases.has(asset))!]);
    const moved = [...market.values()].filter((s) => batchBases.has(s.base)).map((s) => ({ ...s, fundingRate: (s.fundingRate ?? 0) - 0.0003 }));
    const batch = rank(moved);
    live.applyBatch({ version: 3, previousVersion: 2, bases: batchBases, items: batch });
    await building;
    await new Promise((resolve) => setImmediate(resolve));
    expect(live.heldVersion).toBe(3);
    const { items } = await live.current();
    expect(items).toEqual(spliceEntries(ITEM_FIELDS, expected, batchBases, itemsOf(batch)));
  });
});

describe("LiveOpportunities.applyBatch", () => {
  it("serves the batch's assets anew and the other items as the same objects, their JSON kept", async () => {
    const { snapshots, ...history } = wideMarket(12);
    const round = rankOpportunities(snapshots, history).columns;
    const moved = snapshots.filter((s) => s.base === "A3").map((s) => ({ ...s, fundingRate: (s.fundingRate ?? 0) + 0.0005 }));
    const live = new LiveOpportunities(async () => {
      throw new Error("no database in this test");
    });
    await live.applyRound({ version: 1, set: round, asOf: AS_OF }, 0);
    const held = await live.current();
    const page = queryOpportunities(held, { limit: 5_000, offset: 0, sort: "-apr" });
    const at = { at: AS_OF.getTime(), staleAfterMs: 180_000 };
    held.pageJson(page, at);
    const a3 = page.items.filter((o) => o.symbol === "A3").length;
    expect(a3).toBeGreaterThan(0);

    live.applyBatch({ version: 2, previousVersion: 1, bases: new Set(["A3"]), items: rankOpportunities(moved, history).columns });
    const next = await live.current();
    expect(live.heldVersion).toBe(2);
    expect(next).not.toBe(held);
    expect(next.cachedJsonItems).toBe(page.items.length - a3);
    const others = next.items.filter((o) => o.symbol !== "A3");
    expect(others.every((o, i) => o === held.items.filter((p) => p.symbol !== "A3")[i])).toBe(true);
    expect(next.groupOf("A3").every((o) => !held.items.includes(o))).toBe(true);
    const nextPage = queryOpportunities(next, { limit: 5_000, offset: 0, sort: "-apr" });
    expect(next.pageJson(nextPage, at)).toBe(new OpportunitySnapshot(next.items, AS_OF.toISOString(), false).pageJson(nextPage, at));
    // The texts of the items the batch kept, and of those served since.
    expect(next.cachedJsonItems).toBe(new Set([...page.items.filter((o) => o.symbol !== "A3"), ...nextPage.items]).size);
  });
});
