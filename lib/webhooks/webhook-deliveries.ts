import type { Prisma, WebhookAttempt, WebhookDelivery } from "@/lib/db/generated/client";
import { AppError } from "@/lib/errors";
import { eventId, eventTypeSchema, marketEventTypeSchema, type EventType, type PublicEvent } from "@/lib/events/event-types";
import { toPublicEvent } from "@/lib/events/read-events";
import { pageFrom } from "@/lib/pagination";
import { enqueueDeliveries, wakeDeliveries } from "./delivery-queue";
import { assertManualSendAllowed } from "./manual-sends";
import { DEFAULT_TEST_EVENT_TYPE, testEventData } from "./test-events";
import { endpointToChange, findEndpoint, type WebhookOwner, type WebhookServices } from "./webhook-endpoints";
import { WILDCARD, type DeliveryView } from "./webhook-schema";

const isMarketEventType = (type: string) => marketEventTypeSchema.safeParse(type).success;
type EventRowLike = Parameters<typeof toPublicEvent>[0];

// The delivery log of an endpoint, redelivery and test events: shared by /v1 and Account → Webhooks.

const withAttempts = { attempts: { orderBy: [{ at: "desc" }, { id: "desc" }] } } satisfies Prisma.WebhookDeliveryInclude;

/** Which deliveries a page lists: optionally only those of one status, or of one event. */
export interface DeliveryFilter {
  status?: "pending" | "succeeded" | "failed";
  event_id?: string;
}

/** One page of an endpoint's deliveries, newest first, each with its attempts (newest first). */
export async function listDeliveries(services: Pick<WebhookServices, "db">, owner: WebhookOwner, endpointId: string, page: { limit: number; offset: number } & DeliveryFilter) {
  const db = await services.db();
  const endpoint = await findEndpoint(db, owner, endpointId);
  const where = { endpointId: endpoint.id, ...(page.status && { status: page.status }), ...(page.event_id && { eventId: page.event_id }) };
  const [total, rows] = await Promise.all([
    db.webhookDelivery.count({ where }),
    db.webhookDelivery.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: page.offset, take: page.limit, include: withAttempts }),
  ]);
  return pageFrom(rows.map(toDeliveryView), total, page);
}

/**
 * Every delivery of one event to the owner's endpoints of the owner's mode, oldest endpoint first:
 * the view across endpoints of what happened to it. An event none of them received answers an
 * empty list (whether the event exists is GET /v1/events/{id}'s to say).
 */
export async function listEventDeliveries(services: Pick<WebhookServices, "db">, owner: WebhookOwner, eventId: string, page: { limit: number; offset: number }) {
  const db = await services.db();
  const where = { eventId, endpoint: { userId: owner.userId, keyMode: owner.mode === "live" ? ("LIVE" as const) : ("TEST" as const) } };
  const [total, rows] = await Promise.all([
    db.webhookDelivery.count({ where }),
    db.webhookDelivery.findMany({ where, orderBy: [{ createdAt: "asc" }, { id: "asc" }], skip: page.offset, take: page.limit, include: withAttempts }),
  ]);
  return pageFrom(rows.map(toDeliveryView), total, page);
}

/** One delivery of the owner's endpoint; anything else is 404. */
export async function getDelivery(services: Pick<WebhookServices, "db">, owner: WebhookOwner, endpointId: string, deliveryId: string): Promise<DeliveryView> {
  const db = await services.db();
  const endpoint = await findEndpoint(db, owner, endpointId);
  const row = await db.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId: endpoint.id }, include: withAttempts });
  if (!row) throw new AppError("NOT_FOUND", "No such delivery");
  return toDeliveryView(row);
}

/**
 * Sends a delivery again, by hand, now: one attempt with the same body and webhook-id, recorded in
 * its log as manual, never retried. On a delivery still being retried, a success ends the retries
 * and a failure leaves its schedule as it was. Works on a disabled endpoint too, so its owner can
 * check a fix before enabling it again. Counts against the account's manual sends a minute.
 */
export async function redeliver(services: Pick<WebhookServices, "db" | "limiter">, owner: WebhookOwner, endpointId: string, deliveryId: string): Promise<DeliveryView> {
  const { db, endpoint } = await endpointToChange(services, owner, endpointId);
  const row = await db.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId: endpoint.id } });
  if (!row) throw new AppError("NOT_FOUND", "No such delivery");
  await assertManualSendAllowed(services.limiter, owner.userId);
  await enqueueDeliveries(db, [{ delivery_id: row.id, manual: true }]);
  wakeDeliveries();
  return getDelivery(services, owner, endpoint.id, row.id);
}

export interface TestEventOptions {
  /** The event's type; default the endpoint's first, or opportunity.opened for a wildcard endpoint. */
  type?: EventType;
  now?: Date;
}

/**
 * Queues a test event to the endpoint, enabled or not: of the type asked for, with `data` of that
 * type's real shape (lib/webhooks/test-events.ts) and `test: true`, under an id of its own (a
 * number the log reserves and never writes, so it names no real event and no two tests share it).
 * Signed like any delivery, listed in the delivery log, and sent once: its one attempt's result is
 * the delivery's status, with no retries. Counts against the account's manual sends a minute.
 */
export async function sendTestEvent(services: Pick<WebhookServices, "db" | "limiter">, owner: WebhookOwner, endpointId: string, options: TestEventOptions = {}): Promise<DeliveryView> {
  const now = options.now ?? new Date();
  const { db, endpoint } = await endpointToChange(services, owner, endpointId);
  await assertManualSendAllowed(services.limiter, owner.userId);
  const subscribed = eventTypeSchema.safeParse(endpoint.eventTypes[0]);
  const type = options.type ?? (subscribed.success ? subscribed.data : DEFAULT_TEST_EVENT_TYPE);
  const [reserved] = await db.$queryRaw<{ sequence: bigint }[]>`SELECT nextval(pg_get_serial_sequence('"MarketEvent"', 'sequence')) AS sequence`;
  const event: PublicEvent = { id: eventId(BigInt(reserved!.sequence)), type, mode: owner.mode, created_at: now.toISOString(), test: true, data: testEventData(type, now) };
  const id = await db.$transaction(async (tx) => {
    const delivery = await tx.webhookDelivery.create({
      data: { endpointId: endpoint.id, eventId: event.id, eventType: type, payload: JSON.stringify(event) },
    });
    await enqueueDeliveries(tx, [{ delivery_id: delivery.id, once: true }]);
    return delivery.id;
  });
  wakeDeliveries();
  return getDelivery(services, owner, endpoint.id, id);
}

/** The most deliveries one replay queues: a longer backlog is replayed by asking again (`has_more`). */
export const REPLAY_BATCH = 1_000;

/**
 * Queues again what an endpoint did not get since `since`: its failed deliveries created since
 * then (each one more automatic attempt, on the retry schedule's terms), and the events of its
 * types written since then that it never had a delivery of (while it was disabled, say), as new
 * deliveries. A disabled endpoint is enabled again first (replaying is what follows a fix); events older than the
 * log keeps are gone and not replayed. At most REPLAY_BATCH a call; `has_more` says to call again, which goes on
 * where this one stopped (what it queued is pending, or delivered, by then). Counts as one manual send.
 */
export async function replayDeliveries(services: Pick<WebhookServices, "db" | "limiter">, owner: WebhookOwner, endpointId: string, since: Date, now = new Date()) {
  // A `since` in the future finds nothing to queue, and says so.
  const { db, endpoint } = await endpointToChange(services, owner, endpointId);
  await assertManualSendAllowed(services.limiter, owner.userId);
  // Nothing of the endpoint's is older than the endpoint; an earlier `since` (year 0 even, which
  // PostgreSQL cannot store) means "from its creation".
  const from = since > endpoint.createdAt ? since : endpoint.createdAt;
  const result = await db.$transaction(
    async (tx) => {
      // What is replayed must be sent: a disabled endpoint is enabled again, as PATCH {"enabled": true} does.
      if (!endpoint.enabled) await tx.webhookEndpoint.update({ where: { id: endpoint.id }, data: { enabled: true, disabledReason: null, failingSince: null } });
      const failed = await tx.webhookDelivery.findMany({
        where: { endpointId: endpoint.id, status: "failed", createdAt: { gte: from } },
        orderBy: { createdAt: "asc" },
        take: REPLAY_BATCH + 1,
        select: { id: true },
      });
      const retried = failed.slice(0, REPLAY_BATCH);
      if (retried.length) {
        await tx.webhookDelivery.updateMany({ where: { id: { in: retried.map((d) => d.id) } }, data: { status: "pending", nextAttemptAt: now, completedAt: null } });
      }
      const room = REPLAY_BATCH - retried.length;
      const types = endpoint.eventTypes.includes(WILDCARD) ? undefined : endpoint.eventTypes;
      // Events of its types since then, page by page in the log's order, none of which it has a delivery of.
      const unsent: EventRowLike[] = [];
      let after: bigint | undefined;
      let more = false;
      while (room > 0) {
        const page = await tx.marketEvent.findMany({
          where: {
            mode: endpoint.keyMode,
            userId: null,
            createdAt: { gte: from },
            ...(types && { type: { in: types } }),
            ...(after !== undefined && { sequence: { gt: after } }),
          },
          orderBy: { sequence: "asc" },
          take: REPLAY_BATCH,
        });
        if (page.length === 0) break;
        after = page.at(-1)!.sequence;
        const ids = page.map((event) => eventId(event.sequence));
        const had = new Set((await tx.webhookDelivery.findMany({ where: { endpointId: endpoint.id, eventId: { in: ids } }, select: { eventId: true } })).map((d) => d.eventId));
        unsent.push(...page.filter((event) => !had.has(eventId(event.sequence)) && isMarketEventType(event.type)));
        if (unsent.length > room) {
          more = true;
          break;
        }
        if (page.length < REPLAY_BATCH) break;
      }
      const created = unsent.length
        ? await tx.webhookDelivery.createManyAndReturn({
            data: unsent.slice(0, room).map((event) => ({ endpointId: endpoint.id, eventId: eventId(event.sequence), eventType: event.type, payload: JSON.stringify(toPublicEvent(event)) })),
            select: { id: true },
          })
        : [];
      await enqueueDeliveries(tx, [...retried, ...created].map((d) => ({ delivery_id: d.id })));
      return { failed_retried: retried.length, missed_queued: created.length, has_more: failed.length > REPLAY_BATCH || more || room === 0 };
    },
    { timeout: 30_000 },
  );
  wakeDeliveries();
  return { endpoint_id: endpoint.id, since: since.toISOString(), ...result };
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
