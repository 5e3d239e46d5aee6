import { describe, expect, it } from "vitest";
import { wideMarket } from "@/tests/support/market/wide-market";
import { differingColumns } from "@/tests/support/market/differing-columns";
import { ColumnSlabs } from "./encoding/columns";
import { pairRowColumns, writePairRows, type PairRowInputs } from "./pair-rows";
import { rankOpportunities, rankOpportunitiesInSlices, type RowWriter } from "./rank-opportunities";

/** A writer that writes the rows it is given at once, on this thread, through its own views of the shared memory, as the venue thread does. */
function inProcessWriter(answers = true) {
  const asked: { from: number; to: number }[] = [];
  const writer: RowWriter = {
    start(rows: PairRowInputs, from: number, to: number) {
      asked.push({ from, to });
      if (answers) writePairRows(rows, pairRowColumns(rows), from, to);
      return { wait: () => answers };
    },
  };
  return { writer, asked };
}

describe("a ranking's rows written by a second writer", () => {
  // 300 assets on 23 venues: ~76,000 pairs, above the size from which rows are handed over.
  const { snapshots, ...history } = wideMarket(300);
  const alone = rankOpportunities(snapshots, history).columns;

  it("gives exactly the columns of one thread's ranking, the second writer asked for the second half", async () => {
    expect(alone.count).toBeGreaterThan(65_536);
    const { writer, asked } = inProcessWriter();
    const { columns } = await rankOpportunitiesInSlices(snapshots, { ...history, slabs: new ColumnSlabs(1, true), rowWriter: writer }, 0);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.to).toBe(alone.count);
    expect(Math.abs(asked[0]!.from - alone.count / 2)).toBeLessThanOrEqual(2_048);
    expect(differingColumns(columns, alone)).toEqual([]);
  });

  it("writes every row itself when the second writer does not answer", () => {
    const { writer, asked } = inProcessWriter(false);
    const { columns } = rankOpportunities(snapshots, { ...history, slabs: new ColumnSlabs(1, true), rowWriter: writer });
    expect(asked).toHaveLength(1);
    expect(differingColumns(columns, alone)).toEqual([]);
  });

  it("asks no second writer to write into memory only this thread sees", () => {
    const { writer, asked } = inProcessWriter();
    const { columns } = rankOpportunities(snapshots, { ...history, slabs: new ColumnSlabs(), rowWriter: writer });
    expect(asked).toHaveLength(0);
    expect(differingColumns(columns, alone)).toEqual([]);
  });
});
