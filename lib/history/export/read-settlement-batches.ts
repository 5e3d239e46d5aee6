import type { Db } from "@/lib/db";
import { Prisma } from "@/lib/db/generated/client";
import { toFundingSettlement, type FundingSettlement } from "@/lib/market/model/funding-settlement";
import type { ExportSelection } from "./export-request";

/** Rows read per query: one batch is all an export holds at a time. */
export const EXPORT_BATCH_ROWS = 5_000;

interface Row {
  exchange: string;
  market: string;
  base: string;
  time: Date;
  rate: number;
  intervalHours: number | null;
  source: string;
}

// Instants as UTC text cast to the column's type, as the round's SQL writes them: the same moment
// whatever the session's time zone.
const at = (date: Date) => Prisma.sql`${date.toISOString()}::timestamp(3)`;

function filters(selection: ExportSelection): Prisma.Sql {
  const parts = [Prisma.sql`"time" >= ${at(selection.from)} AND "time" <= ${at(selection.to)}`];
  if (selection.exchanges) parts.push(Prisma.sql`exchange IN (${Prisma.join(selection.exchanges)})`);
  if (selection.symbols) parts.push(Prisma.sql`base IN (${Prisma.join(selection.symbols)})`);
  return Prisma.join(parts, " AND ");
}

/** How many settlements `selection` holds, checked against the plan's row cap before anything is sent. */
export async function countSettlements(db: Db, selection: ExportSelection): Promise<number> {
  const [row] = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM "FundingRate" WHERE ${filters(selection)}`;
  return Number(row?.n ?? 0);
}

/**
 * The selection's settlements by (exchange, market, time), `batchRows` at a time: each query
 * continues after the last row of the one before (keyset paging on the primary key's order), so
 * a batch costs the same at the end of a year as at its start and only one is held at a time.
 */
export async function* readSettlementBatches(db: Db, selection: ExportSelection, batchRows = EXPORT_BATCH_ROWS): AsyncGenerator<FundingSettlement[]> {
  let after: Row | undefined;
  for (;;) {
    const keyset = after ? Prisma.sql`AND (exchange, market, "time") > (${after.exchange}, ${after.market}, ${at(after.time)})` : Prisma.empty;
    const rows = await db.$queryRaw<Row[]>`
      SELECT exchange, market, base, "time", rate, "intervalHours", source
      FROM "FundingRate"
      WHERE ${filters(selection)} ${keyset}
      ORDER BY exchange, market, "time"
      LIMIT ${batchRows}`;
    if (rows.length > 0) yield rows.map(toFundingSettlement);
    if (rows.length < batchRows) return;
    after = rows.at(-1);
  }
}
