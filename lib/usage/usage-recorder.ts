import type { Db } from "@/lib/db";
import { BatchedRecorder } from "@/lib/process/batched-recorder";
import { CLIENT_ERROR, RATE_LIMITED, SERVER_ERROR, statusClass, SUCCESS } from "./usage-counts";

export const HOUR_MS = 3_600_000;

/** The route of a /v1 request whose path matches no route (answered 404 or 405 to its key). */
export const UNKNOWN_ROUTE = "(unknown route)";

/** Requests by status class (SUCCESS, CLIENT_ERROR, RATE_LIMITED, SERVER_ERROR). */
type Counts = [number, number, number, number];

/** One key's requests in one hour: counts by route, and its busiest minute. */
interface KeyHour {
  peak: number;
  routes: Map<string, Counts>;
}

/** One row of ApiUsageHourly as a flush adds it. */
export interface UsageRow {
  keyId: string;
  hour: Date;
  route: string;
  successes: number;
  clientErrors: number;
  rateLimited: number;
  serverErrors: number;
  peakPerMinute: number;
}

/**
 * Counts /v1 requests per key, UTC hour, route and outcome without a database write per request:
 * `record` only increments counters in memory (the request path must stay as cheap as it is),
 * and a timer adds them to ApiUsageHourly in one statement every few seconds, as increments, so
 * several processes writing the same rows add up; flushed on shutdown, and a failed batch is kept
 * for the next flush.
 */
export class UsageRecorder extends BatchedRecorder {
  private pending = new Map<number, Map<string, KeyHour>>();
  // The hour requests are arriving in, so the hot path usually skips the lookup by hour.
  private currentHour = -1;
  private current: Map<string, KeyHour> | undefined;

  constructor(private readonly db: () => Promise<Db>) {
    super("recording API usage");
  }

  /**
   * One answered request. `windowCount` is how many requests the key's rate limiter had counted
   * in the current minute, this one included, across every process sharing the limiter: the
   * largest such count in an hour is the key's busiest minute of that hour.
   */
  record(keyId: string, route: string, status: number, windowCount: number, now = Date.now()): void {
    const hour = Math.floor(now / HOUR_MS);
    const keys = hour === this.currentHour && this.current ? this.current : this.hourOf(hour);
    let entry = keys.get(keyId);
    if (!entry) keys.set(keyId, (entry = { peak: 0, routes: new Map() }));
    let counts = entry.routes.get(route);
    if (!counts) entry.routes.set(route, (counts = [0, 0, 0, 0]));
    counts[statusClass(status)]++;
    if (windowCount > entry.peak) entry.peak = windowCount;
  }

  private hourOf(hour: number): Map<string, KeyHour> {
    let keys = this.pending.get(hour);
    if (!keys) this.pending.set(hour, (keys = new Map()));
    this.currentHour = hour;
    this.current = keys;
    return keys;
  }

  /** Everything recorded since the last call, as rows, and forgets it. */
  take(): UsageRow[] {
    const rows: UsageRow[] = [];
    for (const [hour, keys] of this.pending) {
      const start = new Date(hour * HOUR_MS);
      for (const [keyId, entry] of keys) {
        for (const [route, counts] of entry.routes) {
          rows.push({
            keyId,
            hour: start,
            route,
            successes: counts[SUCCESS],
            clientErrors: counts[CLIENT_ERROR],
            rateLimited: counts[RATE_LIMITED],
            serverErrors: counts[SERVER_ERROR],
            peakPerMinute: entry.peak,
          });
        }
      }
    }
    this.pending = new Map();
    this.currentHour = -1;
    this.current = undefined;
    return rows;
  }

  /** Puts rows a flush could not write back among the pending counts, to be retried. */
  restore(rows: readonly UsageRow[]): void {
    for (const row of rows) {
      const keys = this.hourOf(row.hour.getTime() / HOUR_MS);
      let entry = keys.get(row.keyId);
      if (!entry) keys.set(row.keyId, (entry = { peak: 0, routes: new Map() }));
      const counts: Counts = entry.routes.get(row.route) ?? [0, 0, 0, 0];
      counts[SUCCESS] += row.successes;
      counts[CLIENT_ERROR] += row.clientErrors;
      counts[RATE_LIMITED] += row.rateLimited;
      counts[SERVER_ERROR] += row.serverErrors;
      entry.routes.set(row.route, counts);
      entry.peak = Math.max(entry.peak, row.peakPerMinute);
    }
  }

  protected async write(): Promise<void> {
    const rows = this.take();
    if (rows.length === 0) return;
    try {
      await addUsageRows(await this.db(), rows);
    } catch (error) {
      this.restore(rows);
      throw error;
    }
  }
}

/**
 * Adds the rows to ApiUsageHourly in one statement: counts add to what is there, the peak keeps
 * the larger. The owner comes from the key itself, and a key deleted meanwhile is skipped rather
 * than failing the whole batch. Numbers travel as text arrays, which every driver passes alike.
 */
export async function addUsageRows(db: Db, rows: readonly UsageRow[]): Promise<void> {
  const column = <T>(pick: (row: UsageRow) => T) => rows.map((row) => String(pick(row)));
  await db.$executeRaw`
    INSERT INTO "ApiUsageHourly" AS u
      ("keyId", "userId", hour, route, successes, "clientErrors", "rateLimited", "serverErrors", "peakPerMinute")
    SELECT k.id, k."userId", b.hour::timestamp(3), b.route, b.s::int, b.c::int, b.r::int, b.e::int, b.p::int
    FROM unnest(
      ${column((r) => r.keyId)}::text[], ${rows.map((r) => r.hour.toISOString())}::text[], ${column((r) => r.route)}::text[],
      ${column((r) => r.successes)}::text[], ${column((r) => r.clientErrors)}::text[], ${column((r) => r.rateLimited)}::text[],
      ${column((r) => r.serverErrors)}::text[], ${column((r) => r.peakPerMinute)}::text[]
    ) AS b(key_id, hour, route, s, c, r, e, p)
    JOIN "ApiKey" k ON k.id = b.key_id
    -- Rows locked in one order by every process: two flushes of the same rows cannot deadlock.
    ORDER BY b.key_id, b.hour, b.route
    ON CONFLICT ("keyId", hour, route) DO UPDATE SET
      successes = u.successes + EXCLUDED.successes,
      "clientErrors" = u."clientErrors" + EXCLUDED."clientErrors",
      "rateLimited" = u."rateLimited" + EXCLUDED."rateLimited",
      "serverErrors" = u."serverErrors" + EXCLUDED."serverErrors",
      "peakPerMinute" = GREATEST(u."peakPerMinute", EXCLUDED."peakPerMinute")`;
}
