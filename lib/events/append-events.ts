import type { Db } from "@/lib/db";
import type { SqlStatement } from "@/lib/db/direct-sql";
import type { Prisma } from "@/lib/db/generated/client";
import { keyModeToDb, type KeyMode } from "@/lib/keys/mode";
import { processSingleton } from "@/lib/singleton";
import type { NewEvent } from "./event-data";

/** The channel every append notifies (in its transaction, so listeners hear it on commit: log-notifications.ts). */
export const EVENT_LOG_CHANNEL = "market_events";

/** An arbitrary constant: the transaction-level advisory lock every writer of the event log takes. */
export const EVENT_LOG_LOCK_ID = 5_101_700_012;

/**
 * The statements that append `events` to the log, for the caller's transaction (a round's
 * publish, a sandbox tick): the advisory lock, then one INSERT of every event, in order, then the
 * notification.
 *
 * Why the lock: sequences come from a PostgreSQL sequence when a row is inserted, not when it
 * commits, so without it a transaction given 11 could commit after one given 12, and a reader
 * following `sequence > 11` would skip 11 for good. Held from the insert to the commit, the lock
 * makes the order sequences are given the order they become visible. It is taken last in the
 * transaction, so it is held only while the rest commits.
 */
export function eventLogStatements(mode: KeyMode, events: readonly NewEvent[]): SqlStatement[] {
  if (events.length === 0) return [];
  return [
    LOCK_EVENT_LOG,
    {
      // One JSON document of every event rather than two text arrays: a round or a micro-batch
      // appends thousands of events of about a kilobyte each, and the driver escapes every element
      // of a text array in JavaScript, where JSON.stringify writes them all in one native pass.
      text: `
      INSERT INTO "MarketEvent" (mode, type, data)
      SELECT $1::"KeyMode", e.value->>'type', e.value->'data'
      FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(value, n)
      ORDER BY e.n`,
      values: [keyModeToDb(mode), JSON.stringify(events.map((e) => ({ type: e.type, data: e.data })))],
    },
    NOTIFY_EVENT_LOG,
  ];
}

/** The event log's lock, held until the transaction ends. */
const LOCK_EVENT_LOG: SqlStatement = { text: `SELECT pg_advisory_xact_lock(${EVENT_LOG_LOCK_ID}::bigint)`, values: [] };

/** Tells every process listening (log-notifications.ts: other servers' streams and dispatchers) once the transaction commits. */
const NOTIFY_EVENT_LOG: SqlStatement = { text: `SELECT pg_notify('${EVENT_LOG_CHANNEL}', '')`, values: [] };

/** `eventLogStatements` as Prisma statements, for a Prisma transaction. */
export function appendEventStatements(db: Db, mode: KeyMode, events: readonly NewEvent[]): Prisma.PrismaPromise<unknown>[] {
  return eventLogStatements(mode, events).map((s) => prismaStatement(db, s));
}

export function lockEventLog(db: Db): Prisma.PrismaPromise<unknown> {
  return prismaStatement(db, LOCK_EVENT_LOG);
}

export function notifyEventLog(db: Db): Prisma.PrismaPromise<unknown> {
  return prismaStatement(db, NOTIFY_EVENT_LOG);
}

function prismaStatement(db: Db, statement: SqlStatement): Prisma.PrismaPromise<unknown> {
  return db.$executeRawUnsafe(statement.text, ...statement.values);
}

type Listener = () => void;

/**
 * Told when this process has committed events, so its stream feed reads the log at once rather
 * than at its next poll. One per process, whichever copy of this module (server.ts, Next) asks.
 */
export function eventsAppended(): { notify: () => void; listen: (listener: Listener) => () => void } {
  return processSingleton("events-appended", () => {
    const listeners = new Set<Listener>();
    return {
      notify: () => {
        for (const listener of listeners) listener();
      },
      listen: (listener: Listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
  });
}
