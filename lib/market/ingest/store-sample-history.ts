import type { Db } from "@/lib/db";
import { plainArrayLiteral, textArrayLiteral } from "@/lib/db/array-literal";
import { directSql } from "@/lib/db/direct-sql";
import { ensureSettlementPartitions } from "@/lib/history/store/settlement-partitions";
import { isoTexts } from "../model/iso-texts";
import { logger } from "@/lib/observability/logger";
import { readSampleHistory, type SampleSettlement } from "../sample/sample-history";

/**
 * Stores the offline sample's recorded settlements with source `sample`, in one statement through
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
      SELECT r.exchange, r.market, r.base, r.time::timestamp(3), r.rate, r.interval_hours, 'sample'
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

/** The bundle's markets with history, by venue: what a venue's sample rows can be. */
let sampleMarkets: Promise<Map<string, string[]>> | undefined;

function sampleMarketsByVenue(): Promise<Map<string, string[]>> {
  sampleMarkets ??= readSampleHistory(0).then((settlements) => {
    const byVenue = new Map<string, Set<string>>();
    for (const s of settlements) byVenue.set(s.exchange, (byVenue.get(s.exchange) ?? new Set()).add(s.market));
    return new Map([...byVenue].map(([venue, markets]) => [venue, [...markets]]));
  });
  return sampleMarkets;
}

/** The venues whose sample rows this process already removed, per database. */
const cleared = new WeakMap<Db, Set<string>>();

/**
 * Deletes the sample's rows of `exchanges` once real data of theirs arrived (a live round that got
 * the venue, a backfilled page): a live install keeps no recorded rows beside real ones. Each venue
 * costs one statement per process, by the primary key's (exchange, market) prefix over the bundle's
 * few markets, whatever the table's size; later calls for it do nothing. Returns the rows deleted.
 */
export async function removeSampleHistory(db: Db, exchanges: readonly string[]): Promise<number> {
  const done = cleared.get(db) ?? new Set<string>();
  cleared.set(db, done);
  const byVenue = await sampleMarketsByVenue();
  const venues = [...new Set(exchanges)].filter((venue) => !done.has(venue));
  for (const venue of venues) done.add(venue);
  const pairs = venues.flatMap((venue) => (byVenue.get(venue) ?? []).map((market) => ({ venue, market })));
  if (pairs.length === 0) return 0;
  try {
    const rows = await directSql(db).query<{ removed: number }>({
      text: `
      WITH removed AS (
        DELETE FROM "FundingRate" f USING unnest($1::text[], $2::text[]) AS m(exchange, market)
        WHERE f.exchange = m.exchange AND f.market = m.market AND f.source = 'sample'
        RETURNING 1)
      SELECT count(*)::int AS removed FROM removed`,
      values: [textArrayLiteral(pairs, (p) => p.venue), textArrayLiteral(pairs, (p) => p.market)],
    });
    const removed = rows[0]?.removed ?? 0;
    if (removed > 0) logger("ingest").info(`Removed ${removed} sample settlements of ${venues.join(", ")}: real data arrived`);
    return removed;
  } catch (error) {
    // Tried again on the next real data of these venues.
    for (const venue of venues) done.delete(venue);
    throw error;
  }
}
