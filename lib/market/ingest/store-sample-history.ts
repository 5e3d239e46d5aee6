import type { Db } from "@/lib/db";
import { plainArrayLiteral, textArrayLiteral } from "@/lib/db/array-literal";
import { directSql } from "@/lib/db/direct-sql";
import { ensureSettlementPartitions } from "@/lib/history/store/settlement-partitions";
import { isoTexts } from "../model/iso-texts";
import type { SampleSettlement } from "../sample/sample-history";

/**
 * Stores the offline sample's recorded settlements as backfilled history, in one statement through
 * the driver (Prisma's createMany took seconds for its 4,000 rows on embedded PGlite). A row already
 * stored for the same (exchange, market, time) stands, so a restart, or a second process doing the
 * same at once, adds nothing, and history an install stored itself is never overwritten. Returns
 * how many rows were added.
 */
export async function storeSampleHistory(db: Db, settlements: readonly SampleSettlement[]): Promise<number> {
  if (settlements.length === 0) return 0;
  const times = settlements.map((s) => s.time);
  await ensureSettlementPartitions(directSql(db), Math.min(...times), Math.max(...times));
  const iso = isoTexts();
  const text = (pick: (s: SampleSettlement) => string) => textArrayLiteral(settlements, pick);
  const rows = await directSql(db).query<{ added: number }>({
    text: `
    WITH added AS (
      INSERT INTO "FundingRate" (exchange, market, base, time, rate, "intervalHours", source)
      SELECT r.exchange, r.market, r.base, r.time::timestamp(3), r.rate, r.interval_hours, 'backfill'
      FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::float8[]) AS r(exchange, market, base, time, rate, interval_hours)
      ON CONFLICT DO NOTHING
      RETURNING 1)
    SELECT count(*)::int AS added FROM added`,
    values: [
      text((s) => s.exchange),
      text((s) => s.market),
      text((s) => s.base),
      plainArrayLiteral(settlements, (s) => iso(s.time)),
      plainArrayLiteral(settlements, (s) => s.rate),
      plainArrayLiteral(settlements, (s) => s.intervalHours),
    ],
  });
  return rows[0]?.added ?? 0;
}
