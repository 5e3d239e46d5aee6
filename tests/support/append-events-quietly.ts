import type { Db } from "@/lib/db";
import { directSql } from "@/lib/db/direct-sql";
import { eventLogStatements, type AppendedEvents, type AppendedRange } from "@/lib/events/append-events";
import type { NewEvent } from "@/lib/events/event-data";
import type { KeyMode } from "@/lib/keys/mode";

/**
 * Appends events as this process's publishers do (the driver, in a transaction of its own),
 * telling no one yet: what its feed is to be handed (`eventsAppended().notify`), with where they went.
 */
export async function appendEventsQuietly(db: Db, mode: KeyMode, events: NewEvent[]): Promise<AppendedEvents> {
  let range: AppendedRange | undefined;
  await directSql(db).transaction(async (tx) => {
    for (const statement of eventLogStatements(mode, events, (appended) => (range = appended))) await tx.query(statement);
  });
  return { mode, events, range: range! };
}
