import { describe, expect, it } from "vitest";
import { wideMarket } from "@/tests/support/market/wide-market";
import { differingColumns } from "@/tests/support/market/differing-columns";
import { rankOpportunities, rankOpportunitiesInSlices } from "./rank-opportunities";

describe("rankOpportunitiesInSlices", () => {
  it("gives exactly the columns of the whole ranking on a round-sized set, turning the event loop between its slices", async () => {
    const { snapshots, ...history } = wideMarket();
    const whole = rankOpportunities(snapshots, history);
    expect(whole.columns.count).toBeGreaterThan(140_000);

    // Counted while the sliced ranking runs: each is a turn of the event loop it gave.
    let turns = 0;
    let counting = true;
    const count = () => {
      turns += 1;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const sliced = await rankOpportunitiesInSlices(snapshots, history, 0);
    counting = false;

    expect(sliced.skipped).toEqual(whole.skipped);
    expect(differingColumns(sliced.columns, whole.columns)).toEqual([]);
    // Candidates, pairs and rows, a slice for every 2,048 of each.
    expect(turns).toBeGreaterThan(100);
  });
});
