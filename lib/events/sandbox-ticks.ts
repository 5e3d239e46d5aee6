import type { EventsConfig } from "@/lib/config/events-config";
import type { Db } from "@/lib/db";
import { startPeriodicTask, type StartedTask } from "@/lib/process/periodic-task";
import { eventsAppended, lockEventLog, notifyEventLog } from "./append-events";
import { deleteExpiredEvents } from "./event-retention";
import { sandboxTickEvents, sandboxTickStart } from "./sandbox-tick-events";

/** Ticks missed while no process ran (a restart) are written afterwards, up to this many. */
export const MAX_CATCH_UP_TICKS = 10;
const HOUR_MS = 3_600_000;

/**
 * Writes one tick's events, once across every process: the tick's row in SandboxEventTick is
 * claimed in the same statement that appends its events (a data-modifying CTE runs whether or not
 * any event follows), under the event log's lock, so a second process's attempt inserts nothing.
 * Answers whether this call wrote the tick.
 */
export async function writeSandboxTick(db: Db, tick: Date, tickMs: number, threshold: number): Promise<boolean> {
  const events = sandboxTickEvents(tick, tickMs, threshold);
  const types = events.map((e) => e.type);
  const data = events.map((e) => JSON.stringify(e.data));
  const [, claimed] = await db.$transaction([
    lockEventLog(db),
    db.$queryRaw<{ claimed: number }[]>`
      WITH claim AS (
        INSERT INTO "SandboxEventTick" ("startsAt") VALUES (${tick}) ON CONFLICT DO NOTHING RETURNING 1
      ), appended AS (
        INSERT INTO "MarketEvent" (mode, type, data)
        SELECT 'TEST'::"KeyMode", e.type, e.data::jsonb
        FROM unnest(${types}::text[], ${data}::text[]) WITH ORDINALITY AS e(type, data, n)
        WHERE EXISTS (SELECT 1 FROM claim)
        ORDER BY e.n
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM claim)::int AS claimed`,
    notifyEventLog(db),
  ]);
  const wrote = (claimed as { claimed: number }[])[0]?.claimed === 1;
  if (wrote && events.length > 0) eventsAppended().notify();
  return wrote;
}

/**
 * The ticks to write at `now`: from the one after the last written (at most MAX_CATCH_UP_TICKS
 * back) to the current one; only the current one when none was ever written (no backfill).
 */
export function ticksToWrite(lastWritten: Date | null, now: number, tickMs: number): Date[] {
  const current = sandboxTickStart(now, tickMs).getTime();
  if (lastWritten !== null && lastWritten.getTime() >= current) return [];
  const first = lastWritten === null ? current : Math.max(lastWritten.getTime() + tickMs, current - (MAX_CATCH_UP_TICKS - 1) * tickMs);
  const ticks: Date[] = [];
  for (let at = first; at <= current; at += tickMs) ticks.push(new Date(at));
  return ticks;
}

/** One turn of the task: the ticks not yet written, oldest first, and an hourly sweep of expired events. */
export async function writeDueSandboxTicks(db: Db, config: Pick<EventsConfig, "SANDBOX_TICK_MS" | "EVENTS_NET_APR_THRESHOLD">, now = Date.now()): Promise<Date[]> {
  const last = await db.sandboxEventTick.findFirst({ orderBy: { startsAt: "desc" }, select: { startsAt: true } });
  const written: Date[] = [];
  for (const tick of ticksToWrite(last?.startsAt ?? null, now, config.SANDBOX_TICK_MS)) {
    if (await writeSandboxTick(db, tick, config.SANDBOX_TICK_MS, config.EVENTS_NET_APR_THRESHOLD)) written.push(tick);
  }
  return written;
}

/**
 * The sandbox's tick, run by every server and worker (PGlite's one server, or all of them on
 * PostgreSQL: each tick is claimed once). Checks a few times a tick, so a tick is written within
 * seconds of its start; the event log's retention is applied here too, hourly, since the test mode's
 * events exist whether or not live ingestion runs, with the claims of ticks older than a day.
 */
export function startSandboxTicks(db: Db, config: EventsConfig): StartedTask {
  let sweptAt = 0;
  return startPeriodicTask("writing the sandbox's events", Math.min(15_000, config.SANDBOX_TICK_MS / 4), async () => {
    await writeDueSandboxTicks(db, config);
    if (Date.now() - sweptAt >= HOUR_MS) {
      sweptAt = Date.now();
      await deleteExpiredEvents(db, new Date(), config.EVENTS_RETENTION_DAYS * 86_400_000);
      // A tick's claim is needed only until the next ticks are written; a day's are kept for the record.
      await db.sandboxEventTick.deleteMany({ where: { startsAt: { lt: new Date(Date.now() - 86_400_000) } } });
    }
  });
}
