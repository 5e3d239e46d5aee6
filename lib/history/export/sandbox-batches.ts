import type { FundingSettlement } from "@/lib/market/model/funding-settlement";
import { sandboxFundingHistory } from "@/lib/market/sandbox/sandbox-funding-history";
import type { ExportSelection } from "./export-request";
import { EXPORT_BATCH_ROWS } from "./read-settlement-batches";

const byKey = (a: FundingSettlement, b: FundingSettlement) =>
  a.exchange < b.exchange ? -1 : a.exchange > b.exchange ? 1 : a.market < b.market ? -1 : a.market > b.market ? 1 : a.time < b.time ? -1 : a.time > b.time ? 1 : 0;

/**
 * A test key's export: the sandbox's generated settlements (it keeps 7 days, so older parts of a
 * range are empty), in the order and batches of a live export. The sandbox's history is built in
 * memory whole anyway, and is small.
 */
export function sandboxSettlements(selection: ExportSelection, now: Date): FundingSettlement[] {
  const [from, to] = [selection.from.getTime(), selection.to.getTime()];
  const rows: FundingSettlement[] = [];
  for (const settlements of sandboxFundingHistory(now).values()) {
    for (const s of settlements) {
      if (selection.exchanges && !selection.exchanges.includes(s.exchange)) continue;
      if (selection.symbols && !selection.symbols.includes(s.symbol)) continue;
      const time = Date.parse(s.time);
      if (time >= from && time <= to) rows.push(s);
    }
  }
  return rows.sort(byKey);
}

export async function* sandboxBatches(rows: readonly FundingSettlement[], batchRows = EXPORT_BATCH_ROWS): AsyncGenerator<FundingSettlement[]> {
  for (let i = 0; i < rows.length; i += batchRows) yield rows.slice(i, i + batchRows);
}
