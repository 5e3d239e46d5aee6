import type { Db } from "@/lib/db";
import { fieldError } from "@/lib/errors";
import { keyModeFromDb, keyModeToDb, type DbKeyMode, type KeyMode } from "@/lib/keys/mode";
import { eventId, eventTypeSchema, type EventType, type PublicEvent } from "./event-types";

/** A MarketEvent row as read from the log. */
export interface EventRow {
  sequence: bigint;
  mode: DbKeyMode;
  type: string;
  createdAt: Date;
  data: unknown;
}

/** A stored event as the API, the stream and webhooks deliver it. */
export function toPublicEvent(row: EventRow): PublicEvent {
  return {
    id: eventId(row.sequence),
    type: eventTypeSchema.parse(row.type),
    mode: keyModeFromDb(row.mode),
    created_at: row.createdAt.toISOString(),
    data: row.data as Record<string, unknown>,
  };
}

/**
 * Refuses a cursor older than the retention: events after it may have been deleted, and answering
 * what is left would be a silent gap. The highest deleted sequence is kept (MarketEventRetention),
 * so a cursor at it or later is complete.
 */
export async function assertWithinRetention(db: Db, after: bigint, field = "after"): Promise<void> {
  const retention = await db.marketEventRetention.findUnique({ where: { id: "market" } });
  if (retention && after < retention.deletedThrough) {
    throw fieldError(field, "This event is older than the 7 days events are kept: events after it were deleted. Start again without a cursor.");
  }
}

export interface EventPageRequest {
  after?: bigint;
  types?: readonly EventType[];
  limit: number;
  /** Only events up to this sequence (the stream's replay up to where its live feed starts). */
  through?: bigint;
}

/** One page of a mode's events after a cursor, oldest first, and whether more follow. */
export async function readEventPage(db: Db, mode: KeyMode, request: EventPageRequest): Promise<{ items: PublicEvent[]; has_more: boolean }> {
  const rows = await db.marketEvent.findMany({
    where: {
      mode: keyModeToDb(mode),
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
