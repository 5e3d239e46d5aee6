import type { DirectSql, SqlRunner } from "@/lib/db/direct-sql";

/**
 * FundingRate is partitioned by month of `time` (docs/decisions/history-storage.md): one partition
 * `FundingRate_pYYYYMM` a month, and `FundingRate_default` for a row whose month has none. Writers
 * make the months they are about to write first, so rows land in their month and the default stays
 * empty; a row written without that still succeeds, into the default, and moves to its month when
 * the month's partition is made.
 */

const MONTH_MS_APPROX = 31 * 24 * 3_600_000;
/** More months than any venue's history holds (a century): a range beyond it is a caller's mistake. */
export const MAX_PARTITION_MONTHS = 1_200;

/** The first instant (UTC) of the month `at` falls in. */
export function monthStart(at: number): number {
  const d = new Date(at);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** The first instant of the month after the one starting at `month`. */
export function nextMonth(month: number): number {
  const d = new Date(month);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** The partition holding the month starting at `month`. */
export function partitionName(month: number): string {
  const d = new Date(month);
  return `FundingRate_p${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
}

/** The starts of every month that [from, to] touches, oldest first. */
export function monthsBetween(from: number, to: number): number[] {
  if (!Number.isFinite(from) || !Number.isFinite(to)) throw new Error("Settlement partitions need finite times.");
  if (to < from) return [];
  if ((to - from) / MONTH_MS_APPROX > MAX_PARTITION_MONTHS) throw new Error(`Settlement partitions: more than ${MAX_PARTITION_MONTHS} months asked for.`);
  const months: number[] = [];
  for (let month = monthStart(from); month <= to; month = nextMonth(month)) months.push(month);
  return months;
}

/**
 * Each partition's autovacuum settings: vacuumed after every 100,000 new rows (a few hours of live
 * settlements) instead of after 20 % of its size (days of them), so the visibility map keeps up with
 * the live month and GET /v1/funding-rates' index-only scan reads the heap only for the newest rows.
 * The migration that made the index covering gives the default partition the same.
 */
export const PARTITION_STORAGE = "autovacuum_vacuum_insert_threshold = 100000, autovacuum_vacuum_insert_scale_factor = 0";

const sqlTimestamp = (at: number) => new Date(at).toISOString().replace("T", " ").replace("Z", "");

/**
 * The statement making one month's partition when it is missing. Under an advisory lock, so two
 * processes making the same month wait for each other; rows the default partition holds for the
 * month move into it (PostgreSQL refuses a partition whose rows sit in the default). Names and
 * bounds come from a Date, never from a caller's text.
 */
export function ensureMonthStatement(month: number): string {
  const name = partitionName(month);
  const lo = sqlTimestamp(month);
  const hi = sqlTimestamp(nextMonth(month));
  return `
DO $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('FundingRate partitions'));
  IF to_regclass('"${name}"') IS NOT NULL THEN RETURN; END IF;
  IF EXISTS (SELECT 1 FROM "FundingRate_default" WHERE time >= '${lo}' AND time < '${hi}') THEN
    CREATE TEMP TABLE "FundingRate_moving" AS SELECT * FROM "FundingRate_default" WHERE time >= '${lo}' AND time < '${hi}';
    DELETE FROM "FundingRate_default" WHERE time >= '${lo}' AND time < '${hi}';
    CREATE TABLE "${name}" PARTITION OF "FundingRate" FOR VALUES FROM ('${lo}') TO ('${hi}') WITH (${PARTITION_STORAGE});
    INSERT INTO "FundingRate" SELECT * FROM "FundingRate_moving";
    DROP TABLE "FundingRate_moving";
  ELSE
    CREATE TABLE "${name}" PARTITION OF "FundingRate" FOR VALUES FROM ('${lo}') TO ('${hi}') WITH (${PARTITION_STORAGE});
  END IF;
END $$`;
}

// The months known to exist, per database (its driver object): a database this process opened once
// and a test's throwaway one must not share them.
const made = new WeakMap<object, Set<number>>();

/** The oldest and newest times the default partition holds, as epoch ms; null when it is empty. */
async function defaultPartitionSpan(sql: SqlRunner): Promise<{ from: number; to: number } | null> {
  const [span] = await sql.query<{ from: number | null; to: number | null }>({
    text: `SELECT (extract(epoch FROM min(time)) * 1000)::float8 AS "from", (extract(epoch FROM max(time)) * 1000)::float8 AS "to" FROM "FundingRate_default"`,
    values: [],
  });
  return span?.from != null && span.to != null ? { from: span.from, to: span.to } : null;
}

/**
 * Makes every month partition [from, to] touches that this process has not yet seen made, one
 * statement per missing month; once made, a month costs nothing (cached per database, per process).
 * The first call on a database also makes the months of whatever the default partition holds (rows
 * stored before the table was partitioned, or by a writer that did not call this), so they move out.
 * A partition dropped behind the process's back (not by dropSettlementMonthsBefore, which forgets it) only sends
 * its rows to the default partition.
 */
export async function ensureSettlementPartitions(sql: SqlRunner, from: Date | number, to: Date | number): Promise<void> {
  let known = made.get(sql);
  const months = monthsBetween(+from, +to);
  if (!known) {
    const stray = await defaultPartitionSpan(sql);
    if (stray) months.unshift(...monthsBetween(stray.from, stray.to));
    made.set(sql, (known = new Set()));
  }
  for (const month of months) {
    if (known.has(month)) continue;
    await sql.query({ text: ensureMonthStatement(month), values: [] });
    known.add(month);
  }
}

const MONTH_PARTITION = /^FundingRate_p(\d{4})(\d{2})$/;

/** The month partitions of FundingRate (not the default one), each with the first instant of its month. */
export async function settlementMonths(sql: SqlRunner): Promise<{ name: string; month: number }[]> {
  const rows = await sql.query<{ name: string }>({
    text: `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '"FundingRate"'::regclass`,
    values: [],
  });
  return rows
    .map((row) => ({ name: row.name, match: MONTH_PARTITION.exec(row.name) }))
    .filter((row) => row.match !== null)
    .map((row) => ({ name: row.name, month: Date.UTC(Number(row.match![1]), Number(row.match![2]) - 1, 1) }))
    .sort((a, b) => a.month - b.month);
}

/**
 * Drops every month partition whose whole month ended at or before `cutoff`: a settlement retention
 * removes history a month at a time, as a table, without a DELETE scan, dead rows or a vacuum. A month
 * the cutoff falls inside is kept whole until it has passed, and the default partition is never
 * touched. Each drop takes the parent's lock briefly; it gives up after `lockTimeoutMs` rather than
 * hold up the reads queued behind it, and is tried again by the next pass. Returns the dropped names.
 */
export async function dropSettlementMonthsBefore(sql: DirectSql, cutoff: Date, lockTimeoutMs = 2_000): Promise<string[]> {
  const expired = (await settlementMonths(sql)).filter((partition) => nextMonth(partition.month) <= cutoff.getTime());
  const dropped: string[] = [];
  for (const partition of expired) {
    await sql.transaction(async (tx) => {
      await tx.query({ text: `SET LOCAL lock_timeout = ${Math.max(1, Math.round(lockTimeoutMs))}`, values: [] });
      // The name matched MONTH_PARTITION: digits only besides the fixed prefix.
      await tx.query({ text: `DROP TABLE IF EXISTS "${partition.name}"`, values: [] });
    });
    made.get(sql)?.delete(partition.month);
    dropped.push(partition.name);
  }
  return dropped;
}
