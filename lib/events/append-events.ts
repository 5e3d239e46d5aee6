import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db";
import type { SqlStatement } from "@/lib/db/direct-sql";
import type { Prisma } from "@/lib/db/generated/client";
import { keyModeToDb, type KeyMode } from "@/lib/keys/mode";
import { processSingleton } from "@/lib/singleton";
import type { Sliced } from "@/lib/time-slices";
import type { NewEvent } from "./event-data";

/** The channel every append notifies (in its transaction, so listeners hear it on commit: log-notifications.ts). */
export const EVENT_LOG_CHANNEL = "market_events";

/**
 * This process's name on the log's notifications (their payload). A process is told of its own
 * appends in-process (`eventsAppended`), with the events themselves, so log-notifications.ts passes
 * over the notifications it sent: heard through the channel too, they often came before the
 * in-process word and woke the stream feed to read back from the database, a thousand rows a query,
 * the events it was about to take as given (half of a freshness run's events were read back).
 */
export function eventLogWriter(): string {
  return processSingleton("event-log-writer", () => randomUUID());
}

/** An arbitrary constant: the transaction-level advisory lock every writer of the event log takes. */
export const EVENT_LOG_LOCK_ID = 5_101_700_012;

/**
 * The statement that appends `events` to the log, for the caller's transaction (a micro-batch's
 * publish; a round's is `encodedEventLogStatements`): the advisory lock, then one INSERT of every event, in
 * order, then the notification, in one statement, so the transaction waits for one round trip
 * rather than three (each waits for a turn of a busy serving thread's event loop).
 *
 * Why the lock: sequences come from a PostgreSQL sequence when a row is inserted, not when it
 * commits, so without it a transaction given 11 could commit after one given 12, and a reader
 * following `sequence > 11` would skip 11 for good. Held from the insert to the commit, the lock
 * makes the order sequences are given the order they become visible. The events are joined to the
 * lock's one row, so no row (and no sequence) is made before the lock is held; it is taken last in
 * the transaction, so it is held only while the rest commits. The notification is heard on commit.
 */
export function eventLogStatements(mode: KeyMode, events: readonly NewEvent[], onAppended?: (range: AppendedRange) => void): SqlStatement[] {
  // One JSON document of every event rather than two text arrays: a round or a micro-batch
  // appends thousands of events of about a kilobyte each, and the driver escapes every element
  // of a text array in JavaScript, where JSON.stringify writes them all in one native pass.
  return events.length === 0 ? [] : [appendStatement(mode, JSON.stringify(events.map(appended)), onAppended)];
}

/** Where one statement's events went in the log: their sequences, first to last, and their `createdAt`. */
export interface AppendedRange {
  first: bigint;
  last: bigint;
  count: number;
  createdAt: Date;
}

/**
 * `eventLogStatements` of events encoded beforehand (`encodedEventSlices`): a round encodes its
 * tens of thousands of events in slices while it is stored, and appends those its batches left it
 * (PreparedRoundEvents.rebased) while it holds them, where a whole JSON.stringify took a second.
 */
export function encodedEventLogStatements(mode: KeyMode, encoded: readonly string[], onAppended?: (range: AppendedRange) => void): SqlStatement[] {
  return encoded.length === 0 ? [] : [appendStatement(mode, `[${encoded.join(",")}]`, onAppended)];
}

/** Each event's JSON as the log's append reads it, pausing every ENCODED_A_SLICE events. */
export function* encodedEventSlices(events: readonly NewEvent[]): Sliced<string[]> {
  const encoded = new Array<string>(events.length);
  for (let i = 0; i < events.length; i++) {
    if (i % ENCODED_A_SLICE === ENCODED_A_SLICE - 1) yield;
    encoded[i] = JSON.stringify(appended(events[i]!));
  }
  return encoded;
}

const ENCODED_A_SLICE = 512;

/** What the log stores of an event: its type and data. */
function appended(event: NewEvent): { type: string; data: unknown } {
  return { type: event.type, data: event.data };
}

/**
 * The statement appending the events of `json`, a JSON array of `appended` events; it answers
 * where they went (`onAppended`, when run by the driver: SqlStatement.answered).
 */
function appendStatement(mode: KeyMode, json: string, onAppended?: (range: AppendedRange) => void): SqlStatement {
  return {
    text: `
      WITH locked AS MATERIALIZED (SELECT pg_advisory_xact_lock(${EVENT_LOG_LOCK_ID}::bigint)),
      appended AS (
        INSERT INTO "MarketEvent" (mode, type, data)
        SELECT $1::"KeyMode", e.value->>'type', e.value->'data'
        FROM locked, jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(value, n)
        ORDER BY e.n
        RETURNING sequence, "createdAt"
      )
      SELECT pg_notify('${EVENT_LOG_CHANNEL}', $3::text) AS notified, min(sequence)::text AS first, max(sequence)::text AS last,
        count(*)::int AS count, min("createdAt") AS "createdAt"
      FROM appended`,
    values: [keyModeToDb(mode), json, eventLogWriter()],
    ...(onAppended && {
      answered: (rows) => {
        const row = rows[0] as { first: string | null; last: string | null; count: number; createdAt: Date } | undefined;
        if (row?.first && row.last) onAppended({ first: BigInt(row.first), last: BigInt(row.last), count: row.count, createdAt: row.createdAt });
      },
    }),
  };
}

/** The event log's lock, held until the transaction ends. */
const LOCK_EVENT_LOG: SqlStatement = { text: `SELECT pg_advisory_xact_lock(${EVENT_LOG_LOCK_ID}::bigint)`, values: [] };

/** `eventLogStatements` as Prisma statements, for a Prisma transaction. */
export function appendEventStatements(db: Db, mode: KeyMode, events: readonly NewEvent[]): Prisma.PrismaPromise<unknown>[] {
  return eventLogStatements(mode, events).map((s) => prismaStatement(db, s));
}

export function lockEventLog(db: Db): Prisma.PrismaPromise<unknown> {
  return prismaStatement(db, LOCK_EVENT_LOG);
}

/** Tells every other process listening (log-notifications.ts: other servers' streams and dispatchers) once the transaction commits. */
export function notifyEventLog(db: Db): Prisma.PrismaPromise<unknown> {
  return prismaStatement(db, { text: `SELECT pg_notify('${EVENT_LOG_CHANNEL}', $1::text)`, values: [eventLogWriter()] });
}

function prismaStatement(db: Db, statement: SqlStatement): Prisma.PrismaPromise<unknown> {
  return db.$executeRawUnsafe(statement.text, ...statement.values);
}

/**
 * Events this process appended, as their transaction committed them: the feed of this process's
 * streams takes them from here rather than reading them back (EventFeed.wake).
 */
export interface AppendedEvents {
  mode: KeyMode;
  events: readonly NewEvent[];
  range: AppendedRange;
}

type Listener = (appended?: AppendedEvents) => void;

/**
 * Told when this process has committed events, so its stream feed takes them at once rather than
 * at its next poll: those given (AppendedEvents) as they are, others by reading the log. One per
 * process, whichever copy of this module (server.ts, Next) asks.
 */
export function eventsAppended(): { notify: (appended?: AppendedEvents) => void; listen: (listener: Listener) => () => void } {
  return processSingleton("events-appended", () => {
    const listeners = new Set<Listener>();
    return {
      notify: (appended) => {
        for (const listener of listeners) listener(appended);
      },
      listen: (listener: Listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
  });
}
