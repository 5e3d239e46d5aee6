import type { Db } from "@/lib/db";
import { toFundingIntervalChange, type FundingIntervalChange } from "../model/funding-interval-change";
import type { IntervalChangeWindow } from "../market";
import { marketKey } from "../model/market-average";

/** When each market's interval last changed since `since`, by `marketKey`: what `interval_changed_at` shows. */
export async function readRecentIntervalChanges(db: Db, since: Date): Promise<Map<string, number>> {
  const rows = await db.fundingIntervalChange.groupBy({
    by: ["exchange", "market"],
    where: { effectiveAt: { gte: since } },
    _max: { effectiveAt: true },
  });
  const latest = new Map<string, number>();
  for (const row of rows) if (row._max.effectiveAt) latest.set(marketKey(row.exchange, row.market), row._max.effectiveAt.getTime());
  return latest;
}

/** Stored interval changes in a window, oldest first (then by exchange and market), a page of them. */
export async function readIntervalChangePage(db: Db, w: IntervalChangeWindow): Promise<{ items: FundingIntervalChange[]; total: number }> {
  const where = {
    effectiveAt: { gte: w.from, lte: w.to },
    ...(w.exchange !== undefined && { exchange: w.exchange }),
    ...(w.symbol !== undefined && { base: w.symbol }),
  };
  const [rows, total] = await db.$transaction([
    db.fundingIntervalChange.findMany({
      where,
      orderBy: [{ effectiveAt: "asc" }, { exchange: "asc" }, { market: "asc" }],
      skip: w.offset,
      take: w.limit,
    }),
    db.fundingIntervalChange.count({ where }),
  ]);
  return { items: rows.map(toFundingIntervalChange), total };
}
