import type { Db } from "@/lib/db";
import { AppError, fieldError } from "@/lib/errors";
import { keyModeFromDb, keyModeToDb, type DbKeyMode, type KeyMode } from "@/lib/keys/mode";
import { eventId, eventSequence, eventTypeSchema, type EventType, type PublicEvent } from "./event-types";

/** A MarketEvent row as read from the log. */
export interface EventRow {
  sequence: bigint;
  mode: DbKeyMode;
  type: string;
  createdAt: Date;
  data: unknown;
  userId: string | null;
}

/** A stored event as the API, the stream, webhooks and alerts deliver it. */
export function toPublicEvent(row: Omit<EventRow, "userId">): PublicEvent {
  return {
    id: eventId(row.sequence),
    type: eventTypeSchema.parse(row.type),
    mode: keyModeFromDb(row.mode),
    created_at: row.createdAt.toISOString(),
    data: row.data as Record<string, unknown>,
  };
}

/**
 * Refuses a cursor the log cannot resume from. Older than the retention: events after it may have
 * been deleted, and answering what is left would be a silent gap; the highest deleted sequence is
 * kept (MarketEventRetention), so a cursor at it or later is complete. Beyond the newest event
 * written (a mistyped id, one from another database): nothing would match until the log caught up
 * with it, silently starving the reader, so it is refused too. Sequences are one log across modes
 * and accounts, so a cursor any reader was given is never beyond the newest.
 */
export async function assertWithinRetention(db: Db, after: bigint, field = "after"): Promise<void> {
  const retention = await db.marketEventRetention.findUnique({ where: { id: "market" } });
  if (retention && after < retention.deletedThrough) {
    throw fieldError(field, "This event is older than the events still kept: events after it were deleted. Start again without a cursor.");
  }
  if (after <= (retention?.deletedThrough ?? 0n)) return;
  const newest = await db.marketEvent.findFirst({ where: { sequence: { gte: after } }, select: { sequence: true } });
  if (!newest) {
    throw fieldError(field, "No event with this id was written yet: it is beyond the newest event. Resume from an id you were given, or start without a cursor.");
  }
}

/**
 * Which events a key reads: the market's events of its mode, and its own account's alert events,
 * never another account's.
 */
export function visibleTo(mode: KeyMode, userId: string) {
  return { mode: keyModeToDb(mode), OR: [{ userId: null }, { userId }] };
}

/** Whether a key of `mode` and account `userId` may see the event (the live stream's test; `visibleTo` is the query's). */
export function isVisibleTo(row: { mode: DbKeyMode; userId: string | null }, mode: KeyMode, userId: string): boolean {
  return row.mode === keyModeToDb(mode) && (row.userId === null || row.userId === userId);
}

export interface EventPageRequest {
  after?: bigint;
  types?: readonly EventType[];
  limit: number;
  /** Only events up to this sequence (the stream's replay up to where its live feed starts). */
  through?: bigint;
}

/** One page of the events a key sees (its mode's, and its account's alerts) after a cursor, oldest first, and whether more follow. */
export async function readEventPage(
  db: Db,
  reader: { mode: KeyMode; userId: string },
  request: EventPageRequest,
): Promise<{ items: PublicEvent[]; has_more: boolean }> {
  const rows = await db.marketEvent.findMany({
    where: {
      ...visibleTo(reader.mode, reader.userId),
      ...((request.after !== undefined || request.through !== undefined) && {
        sequence: { ...(request.after !== undefined && { gt: request.after }), ...(request.through !== undefined && { lte: request.through }) },
      }),
      ...(request.types && { type: { in: [...request.types] } }),
    },
    orderBy: { sequence: "asc" },
    take: request.limit + 1,
  });
  return { items: rows.slice(0, request.limit).map(toPublicEvent), has_more: rows.length > request.limit };
}

/** One event a key sees, by its `evt_…` id; another mode's, another account's, a deleted or an unknown one is 404. */
export async function readEvent(db: Db, reader: { mode: KeyMode; userId: string }, id: string): Promise<PublicEvent> {
  const sequence = eventSequence(id);
  const row = sequence === null ? null : await db.marketEvent.findFirst({ where: { sequence, ...visibleTo(reader.mode, reader.userId) } });
  if (!row) throw new AppError("NOT_FOUND", "No such event: it never existed, is another mode's, or is older than the events still kept");
  return toPublicEvent(row);
}
