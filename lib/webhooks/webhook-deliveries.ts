import type { Db } from "@/lib/db";
import type { WebhookAttempt, WebhookDelivery } from "@/lib/db/generated/client";
import { AppError } from "@/lib/errors";
import { eventId, eventTypeSchema, type PublicEvent } from "@/lib/events/event-types";
import { enqueueDeliveries, wakeDeliveries } from "./delivery-queue";
import { assertMayUseWebhooks, findEndpoint, type WebhookOwner } from "./webhook-endpoints";
import type { DeliveryView } from "./webhook-schema";

// The delivery log of an endpoint, redelivery and test events: shared by /v1 and Account → Webhooks.

/** The event id test events carry: sequence 0, which the log never gives, so it names no real event. */
export const TEST_EVENT_ID = eventId(0n);

/** One page of an endpoint's deliveries, newest first, each with its attempts (newest first). */
export async function listDeliveries(db: Db, owner: WebhookOwner, endpointId: string, page: { limit: number; offset: number }) {
  const endpoint = await findEndpoint(db, owner, endpointId);
  const [total, rows] = await Promise.all([
    db.webhookDelivery.count({ where: { endpointId: endpoint.id } }),
    db.webhookDelivery.findMany({
      where: { endpointId: endpoint.id },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: page.offset,
      take: page.limit,
      include: { attempts: { orderBy: [{ at: "desc" }, { id: "desc" }] } },
    }),
  ]);
  return { items: rows.map(toDeliveryView), total, limit: page.limit, offset: page.offset, has_more: page.offset + rows.length < total };
}

/** One delivery of the owner's endpoint; anything else is 404. */
export async function getDelivery(db: Db, owner: WebhookOwner, endpointId: string, deliveryId: string): Promise<DeliveryView> {
  const endpoint = await findEndpoint(db, owner, endpointId);
  const row = await db.webhookDelivery.findFirst({
    where: { id: deliveryId, endpointId: endpoint.id },
    include: { attempts: { orderBy: [{ at: "desc" }, { id: "desc" }] } },
  });
  if (!row) throw new AppError("NOT_FOUND", "No such delivery");
  return toDeliveryView(row);
}

/**
 * Sends a delivery again, by hand, now: one attempt with the same body and webhook-id, recorded in
 * its log as manual, never retried. On a delivery still being retried, a success ends the retries
 * and a failure leaves its schedule as it was. Works on a disabled endpoint too, so its owner can
 * check a fix before enabling it again.
 */
export async function redeliver(db: Db, owner: WebhookOwner, endpointId: string, deliveryId: string): Promise<DeliveryView> {
  assertMayUseWebhooks(owner);
  const endpoint = await findEndpoint(db, owner, endpointId);
  const row = await db.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId: endpoint.id } });
  if (!row) throw new AppError("NOT_FOUND", "No such delivery");
  await enqueueDeliveries(db, [{ delivery_id: row.id, manual: true }]);
  wakeDeliveries();
  return getDelivery(db, owner, endpoint.id, row.id);
}

/**
 * Queues a test event to the endpoint, enabled or not: of its first event type, with id
 * `evt_0000000000000000` (no real event has it) and `data: {"test": true}`, signed and retried
 * like any other delivery, and listed in the delivery log.
 */
export async function sendTestEvent(db: Db, owner: WebhookOwner, endpointId: string, now = new Date()): Promise<DeliveryView> {
  assertMayUseWebhooks(owner);
  const endpoint = await findEndpoint(db, owner, endpointId);
  const type = eventTypeSchema.parse(endpoint.eventTypes[0]);
  const event: PublicEvent = { id: TEST_EVENT_ID, type, mode: owner.mode, created_at: now.toISOString(), data: { test: true } };
  const id = await db.$transaction(async (tx) => {
    const delivery = await tx.webhookDelivery.create({
      data: { endpointId: endpoint.id, eventId: event.id, eventType: type, payload: JSON.stringify(event) },
    });
    // A test event to a disabled endpoint is sent all the same, once, as a redelivery is.
    await enqueueDeliveries(tx, [{ delivery_id: delivery.id, manual: !endpoint.enabled }]);
    return delivery.id;
  });
  wakeDeliveries();
  return getDelivery(db, owner, endpoint.id, id);
}

export function toDeliveryView(row: WebhookDelivery & { attempts: WebhookAttempt[] }): DeliveryView {
  return {
    id: row.id,
    endpoint_id: row.endpointId,
    event_id: row.eventId,
    event_type: eventTypeSchema.parse(row.eventType),
    status: row.status === "succeeded" || row.status === "failed" ? row.status : "pending",
    attempt_count: row.attemptCount,
    next_attempt_at: row.nextAttemptAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    attempts: row.attempts.map((a) => ({
      at: a.at.toISOString(),
      status_code: a.statusCode,
      error: a.error,
      latency_ms: a.latencyMs,
      response_body: a.responseBody,
      manual: a.manual,
    })),
  };
}
