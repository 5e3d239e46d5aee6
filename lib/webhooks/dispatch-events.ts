import type { Db } from "@/lib/db";
import { eventId } from "@/lib/events/event-types";
import { toPublicEvent } from "@/lib/events/read-events";
import { dbTiersWith } from "@/lib/plans";
import { enqueueDeliveries } from "./delivery-queue";
import { WILDCARD } from "./webhook-schema";

const CURSOR_ID = "webhooks";

/**
 * Reads the MarketEvent log past the stored cursor, at most `batch` events, and queues one
 * delivery per event and enabled endpoint of the event's mode that asked for its type (or for `*`) and existed
 * when it was written (endpoints of accounts back on Free receive nothing). The deliveries, their
 * jobs and the cursor move in one transaction, so a crash loses no event and queues none twice;
 * the cursor row's lock makes concurrent dispatchers (several workers) take turns.
 * Answers how many events it read: a full batch means more may be waiting.
 */
export async function dispatchEvents(db: Db, batch = 500): Promise<{ events: number; deliveries: number }> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`INSERT INTO "WebhookDispatchCursor" (id, sequence) VALUES (${CURSOR_ID}, 0) ON CONFLICT (id) DO NOTHING`;
      const [cursor] = await tx.$queryRaw<{ sequence: bigint }[]>`SELECT sequence FROM "WebhookDispatchCursor" WHERE id = ${CURSOR_ID} FOR UPDATE`;
      // Account-scoped events (alert.triggered) are not for subscribers of a type: alert evaluation
      // queues them to the rule's endpoints itself (lib/alerts/evaluate-alerts.ts).
      const events = await tx.marketEvent.findMany({ where: { sequence: { gt: cursor!.sequence }, userId: null }, orderBy: { sequence: "asc" }, take: batch });
      if (events.length === 0) return { events: 0, deliveries: 0 };
      const endpoints = await tx.webhookEndpoint.findMany({
        where: { enabled: true, user: { tier: { in: dbTiersWith("webhooks") } } },
        select: { id: true, keyMode: true, eventTypes: true, createdAt: true },
      });
      const rows = events.flatMap((event) => {
        const matching = endpoints.filter(
          (e) => e.keyMode === event.mode && (e.eventTypes.includes(event.type) || e.eventTypes.includes(WILDCARD)) && e.createdAt <= event.createdAt,
        );
        if (matching.length === 0) return [];
        const payload = JSON.stringify(toPublicEvent(event));
        return matching.map((endpoint) => ({ endpointId: endpoint.id, eventId: eventId(event.sequence), eventType: event.type, payload }));
      });
      const created = rows.length ? await tx.webhookDelivery.createManyAndReturn({ data: rows, select: { id: true } }) : [];
      await enqueueDeliveries(tx, created.map((row) => ({ delivery_id: row.id })));
      await tx.webhookDispatchCursor.update({ where: { id: CURSOR_ID }, data: { sequence: events.at(-1)!.sequence } });
      return { events: events.length, deliveries: created.length };
    },
    { timeout: 30_000 },
  );
}
