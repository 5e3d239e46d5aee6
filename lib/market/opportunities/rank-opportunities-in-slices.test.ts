import { describe, expect, it } from "vitest";
import { countingTurns } from "@/tests/support/event-loop-turns";
import { wideMarket } from "@/tests/support/market/wide-market";
import { differingColumns } from "@/tests/support/market/differing-columns";
import { rankOpportunities, rankOpportunitiesInSlices } from "./rank-opportunities";

describe("rankOpportunitiesInSlices", () => {
  it("gives exactly the columns of the whole ranking on a round-sized set, turning the event loop between its slices", async () => {
    const { snapshots, ...history } = wideMarket();
    const whole = rankOpportunities(snapshots, history);
    expect(whole.columns.count).toBeGreaterThan(140_000);

    const { result: sliced, turns } = await countingTurns(() => rankOpportunitiesInSlices(snapshots, history, 0));

    expect(sliced.skipped).toEqual(whole.skipped);
    expect(differingColumns(sliced.columns, whole.columns)).toEqual([]);
    // Candidates, pairs and rows, a slice for every 2,048 of each.
    expect(turns).toBeGreaterThan(100);
  });
});
