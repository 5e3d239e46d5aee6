import { describe, expect, it } from "vitest";
import { countingTurns } from "@/tests/support/event-loop-turns";
import { wideMarket } from "@/tests/support/market/wide-market";
import { LiveOpportunities } from "./live-opportunities";
import { OpportunitySnapshot, queryOpportunities } from "./opportunity-query";
import { rankOpportunities } from "./rank-opportunities";

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

    // Its items are built a slice at a time, the event loop turning between.
    const { turns } = await countingTurns(() => building);
    expect(turns).toBeGreaterThan(5);

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
