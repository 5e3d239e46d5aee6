import type { z } from "zod";
import type { Prisma } from "@/lib/db/generated/client";
import { EVENT_LOG_CHANNEL, EVENT_LOG_LOCK_ID, eventLogWriter } from "@/lib/events/append-events";
import type { alertTriggeredSchema } from "@/lib/events/event-data";
import { eventId } from "@/lib/events/event-types";
import { toPublicEvent } from "@/lib/events/read-events";
import { enqueueDeliveries } from "@/lib/webhooks/delivery-queue";

export type AlertTriggeredData = z.infer<typeof alertTriggeredSchema>;

/** An alert to write: the rule's owner, mode and enabled endpoints, and the event's `data`. */
export interface AlertToWrite {
  rule: { userId: string; keyMode: "LIVE" | "TEST"; endpoints: readonly { id: string }[] };
  data: AlertTriggeredData;
}

/**
 * Writes `alert.triggered` events owned by each rule's account, in order, and queues a delivery of
 * each to the rule's endpoints, in the caller's transaction (which holds its evaluator's cursor).
 * The log's lock is taken here, last, as every writer of the log takes it (append-events.ts says why).
 */
export async function writeAlerts(tx: Prisma.TransactionClient, alerts: readonly AlertToWrite[]): Promise<{ alerts: number; deliveries: number }> {
  if (alerts.length === 0) return { alerts: 0, deliveries: 0 };
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${EVENT_LOG_LOCK_ID}::bigint)`;
  const written = await tx.$queryRaw<{ sequence: bigint; mode: "LIVE" | "TEST"; type: string; createdAt: Date; data: Prisma.JsonValue }[]>`
    INSERT INTO "MarketEvent" (mode, type, data, "userId")
    SELECT e.mode::"KeyMode", 'alert.triggered', e.data::jsonb, e.user_id
    FROM unnest(${alerts.map((a) => a.rule.keyMode)}::text[], ${alerts.map((a) => JSON.stringify(a.data))}::text[], ${alerts.map((a) => a.rule.userId)}::text[])
      WITH ORDINALITY AS e(mode, data, user_id, n)
    ORDER BY e.n
    RETURNING sequence, mode, type, "createdAt", data`;
  await tx.$executeRaw`SELECT pg_notify(${EVENT_LOG_CHANNEL}, ${eventLogWriter()})`;
  // Sequences are drawn in the insert's order, so sorted by sequence the rows line up with `alerts`.
  written.sort((a, b) => (a.sequence < b.sequence ? -1 : 1));
  const rows = written.flatMap((row, i) => {
    const payload = JSON.stringify(toPublicEvent(row));
    return alerts[i]!.rule.endpoints.map((endpoint) => ({ endpointId: endpoint.id, eventId: eventId(row.sequence), eventType: row.type, payload }));
  });
  const created = rows.length ? await tx.webhookDelivery.createManyAndReturn({ data: rows, select: { id: true } }) : [];
  await enqueueDeliveries(tx, created.map((row) => ({ delivery_id: row.id })));
  return { alerts: written.length, deliveries: created.length };
}
