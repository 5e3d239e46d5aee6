import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db";
import type { OpenDatabase } from "@/lib/db/open-database";
import { appendEventStatements, eventsAppended } from "@/lib/events/append-events";
import { EVENT_DATA_SCHEMAS } from "@/lib/events/event-data";
import { eventId } from "@/lib/events/event-types";
import { claimJobs } from "@/lib/jobs/job-queue";
import { DELIVERY_QUEUE } from "@/lib/webhooks/delivery-queue";
import { deliverWebhook, DISABLE_AFTER_FAILING_MS } from "@/lib/webhooks/deliver-webhook";
import { DELIVERY_RETENTION_MS, deleteOldDeliveries } from "@/lib/webhooks/delivery-retention";
import { dispatchEvents } from "@/lib/webhooks/dispatch-events";
import { createEndpoint, deleteEndpoint, rollEndpointSecret, type WebhookOwner } from "@/lib/webhooks/webhook-endpoints";
import { listDeliveries, redeliver, sendTestEvent } from "@/lib/webhooks/webhook-deliveries";
import { startWebhooks } from "@/lib/alerts/start-webhooks";
import { readWebhookConfig } from "@/lib/webhooks/webhook-config";
import { MemoryRateLimiter } from "@/lib/ratelimit";
import { signature } from "@/lib/webhooks/webhook-signature";
import { createUser } from "@/tests/support/api-fixtures";
import { captureLogs } from "@/tests/support/capture-logs";
import { createTestDatabase } from "@/tests/support/test-database";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";

// Webhook deliveries end to end against a receiver on loopback, driven step by step with a clock
// of the test's own: dispatching MarketEvents to matching endpoints, signing, retrying on the
// schedule, recording every attempt, redelivery, test events and the 3-day auto-disable.

let database: OpenDatabase;
let db: Db;
let receiver: WebhookReceiver;
let owner: WebhookOwner;
const origin = { ip: "203.0.113.7", userAgent: "vitest" };
let clock = Date.now();
const now = () => new Date(clock);
// Each test its own limiter: the manual sends' limit is tested in webhook-api.test.ts.
let limiter: MemoryRateLimiter;
// What the operations need of the services: this test's database and limiter; the receiver is on loopback.
const services = {
  db: async () => db,
  get limiter() {
    return limiter;
  },
  allowPrivateWebhookUrls: true,
};
const testEvent = (endpointId: string, type?: "venue.stale") => sendTestEvent(services, owner, endpointId, { now: now(), type });

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
});
afterAll(() => database?.close());
beforeEach(async () => {
  receiver = await startWebhookReceiver();
  limiter = new MemoryRateLimiter();
  const user = await createUser(db, "desk");
  owner = { userId: user.id, mode: "live", tier: "desk" };
  // Each test reads only events it writes: the dispatcher starts past everything before.
  await dispatchEvents(db);
  // Another test's endpoints and retries are not this one's.
  await db.webhookEndpoint.updateMany({ data: { enabled: false } });
  await db.job.deleteMany();
  clock = Date.now();
});
afterEach(() => receiver.close());

/** Runs every delivery job due at the test clock, as the runner would. */
async function runDue(): Promise<number> {
  clock = Math.max(clock, Date.now()); // jobs are queued at the database's clock
  const jobs = await claimJobs(db, DELIVERY_QUEUE, 50, 40_000, now());
  for (const job of jobs) await deliverWebhook(db, job, { allowPrivate: true, timeoutMs: 5_000, now, random: () => 0.5 });
  return jobs.length;
}

async function appendEvent(type = "opportunity.opened", mode: "LIVE" | "TEST" = "LIVE") {
  return db.marketEvent.create({ data: { mode, type, data: { opportunity_id: "BTC-binance-bybit", apr: 12.5 } } });
}

describe("webhook delivery", () => {
  it("retries a receiver answering 500 twice then 200: three attempts recorded, delivered once, signed each time", async () => {
    const endpoint = await createEndpoint(services, owner, { url: `${receiver.url}/hooks`, event_types: ["opportunity.opened"] }, origin);
    receiver.answer = (_request, index) => (index < 2 ? { status: 500, body: `failure ${index + 1}` } : { status: 200, body: "thanks" });
    const event = await appendEvent();
    expect(await dispatchEvents(db)).toEqual({ events: 1, deliveries: 1 });

    expect(await runDue()).toBe(1);
    expect(await runDue()).toBe(0); // the retry waits 5 s
    clock += 5_000;
    expect(await runDue()).toBe(1);
    clock += 60_000;
    expect(await runDue()).toBe(1);
    clock += 86_400_000;
    expect(await runDue()).toBe(0); // nothing more: it was delivered

    expect(receiver.received.map((r) => r.answered)).toEqual([500, 500, 200]);
    const ids = new Set(receiver.received.map((r) => r.headers["webhook-id"]));
    expect(ids.size).toBe(1);
    const expectedBody = { id: eventId(event.sequence), type: "opportunity.opened", mode: "live", created_at: event.createdAt.toISOString(), data: event.data };
    for (const request of receiver.received) {
      expect(request.path).toBe("/hooks");
      expect(request.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(request.body)).toEqual(expectedBody);
      const timestamp = Number(request.headers["webhook-timestamp"]);
      expect(request.headers["webhook-signature"]).toBe(signature(endpoint.secret, String(request.headers["webhook-id"]), timestamp, request.body));
    }
    const page = await listDeliveries(services, owner, endpoint.id, { limit: 10, offset: 0 });
    expect(page.total).toBe(1);
    const delivery = page.items[0]!;
    expect(delivery).toMatchObject({ id: [...ids][0], event_id: eventId(event.sequence), status: "succeeded", attempt_count: 3, next_attempt_at: null });
    expect(delivery.attempts.map((a) => [a.status_code, a.error, a.response_body, a.manual])).toEqual([
      [200, null, "thanks", false],
      [500, "HTTP 500", "failure 2", false],
      [500, "HTTP 500", "failure 1", false],
    ]);
    expect(await db.job.count()).toBe(0);
    expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).failingSince).toBeNull();
  });

  it("finishes a delivery whose endpoint was deleted while its request was out, recording nothing", async () => {
    const endpoint = await createEndpoint(services, owner, { url: `${receiver.url}/hooks`, event_types: ["opportunity.opened"] }, origin);
    receiver.answer = () => "hold";
    await appendEvent();
    await dispatchEvents(db);
    clock = Math.max(clock, Date.now());
    const [job] = await claimJobs(db, DELIVERY_QUEUE, 50, 40_000, now());
    const delivering = deliverWebhook(db, job!, { allowPrivate: true, timeoutMs: 5_000, now, random: () => 0.5 });
    await receiver.waitFor(1);
    await deleteEndpoint(services, owner, endpoint.id, origin);
    await receiver.close(); // the held request is dropped: a failed attempt, with nothing left to record it on
    receiver = await startWebhookReceiver();
    await delivering;
    expect(await db.job.count()).toBe(0);
    expect(await db.webhookAttempt.count({ where: { delivery: { endpointId: endpoint.id } } })).toBe(0);
  });

  it("dispatches events this process appended at once, not at the next poll", async () => {
    // A poll a minute away: only being told of the append can deliver within this test.
    const service = startWebhooks({ db, config: readWebhookConfig({ NODE_ENV: "test", WEBHOOK_ALLOW_PRIVATE_URLS: "1", WEBHOOK_POLL_MS: "60000" }) });
    try {
      await service.idle();
      await createEndpoint(services, owner, { url: `${receiver.url}/told`, event_types: ["venue.stale"] }, origin);
      const data = { exchange: "okx", status: "stale" as const, last_success_at: null, error: "timeout" };
      await db.$transaction(appendEventStatements(db, "live", [{ type: "venue.stale", data }]));
      eventsAppended().notify();
      await service.idle();
      expect(receiver.received.map((r) => [r.path, JSON.parse(r.body).data])).toEqual([["/told", data]]);
    } finally {
      await service.stop();
    }
  });

  it("delivers only to enabled endpoints of the event's mode that asked for its type and existed when it was written", async () => {
    const early = await appendEvent();
    const wanted = await createEndpoint(services, owner, { url: `${receiver.url}/wanted`, event_types: ["opportunity.opened", "venue.stale"] }, origin);
    await createEndpoint(services, owner, { url: `${receiver.url}/other-type`, event_types: ["opportunity.closed"] }, origin);
    await createEndpoint(services, { ...owner, mode: "test" }, { url: `${receiver.url}/test-mode`, event_types: ["opportunity.opened"] }, origin);
    const disabled = await createEndpoint(services, owner, { url: `${receiver.url}/disabled`, event_types: ["opportunity.opened"] }, origin);
    await db.webhookEndpoint.update({ where: { id: disabled.id }, data: { enabled: false } });
    const free = await createUser(db, "free");
    const downgraded = await createEndpoint(services, { userId: free.id, mode: "live", tier: "pro" }, { url: `${receiver.url}/free`, event_types: ["opportunity.opened"] }, origin);
    expect(downgraded.id).toBeTruthy();
    const late = await appendEvent();
    await appendEvent("venue.stale", "TEST");
    await dispatchEvents(db);
    await runDue();
    const got = receiver.received.map((r) => `${r.path} ${JSON.parse(r.body).id}`).sort();
    expect(got).toEqual([`/wanted ${eventId(late.sequence)}`]);
    expect(got.join()).not.toContain(eventId(early.sequence));
    expect((await listDeliveries(services, owner, wanted.id, { limit: 10, offset: 0 })).total).toBe(1);
  });

  it("redelivers a finished delivery by hand: one attempt with the same id, recorded as manual, never retried", async () => {
    const endpoint = await createEndpoint(services, owner, { url: receiver.url, event_types: ["opportunity.opened"] }, origin);
    await appendEvent();
    await dispatchEvents(db);
    await runDue();
    const [delivery] = (await listDeliveries(services, owner, endpoint.id, { limit: 1, offset: 0 })).items;
    receiver.answer = () => ({ status: 503 });
    await redeliver(services, owner, endpoint.id, delivery!.id);
    expect(await runDue()).toBe(1);
    clock += 86_400_000;
    expect(await runDue()).toBe(0);
    const after = (await listDeliveries(services, owner, endpoint.id, { limit: 1, offset: 0 })).items[0]!;
    expect(after).toMatchObject({ status: "failed", attempt_count: 2 });
    expect(after.attempts.map((a) => [a.status_code, a.manual])).toEqual([
      [503, true],
      [200, false],
    ]);
    expect(receiver.received.map((r) => r.headers["webhook-id"])).toEqual([delivery!.id, delivery!.id]);
  });

  it("lets a manual attempt on a delivery still being retried end its retries when it succeeds, and leave them when it fails", async () => {
    const endpoint = await createEndpoint(services, owner, { url: receiver.url, event_types: ["opportunity.opened"] }, origin);
    receiver.answer = () => ({ status: 500 });
    await appendEvent();
    await dispatchEvents(db);
    await runDue();
    const [delivery] = (await listDeliveries(services, owner, endpoint.id, { limit: 1, offset: 0 })).items;
    expect(delivery).toMatchObject({ status: "pending", attempt_count: 1 });
    await redeliver(services, owner, endpoint.id, delivery!.id);
    await runDue();
    const stillPending = (await listDeliveries(services, owner, endpoint.id, { limit: 1, offset: 0 })).items[0]!;
    expect(stillPending).toMatchObject({ status: "pending", attempt_count: 2, next_attempt_at: delivery!.next_attempt_at });
    receiver.answer = () => ({ status: 200 });
    await redeliver(services, owner, endpoint.id, delivery!.id);
    await runDue();
    clock += 86_400_000;
    await runDue(); // the scheduled retry finds the delivery done and sends nothing
    const done = (await listDeliveries(services, owner, endpoint.id, { limit: 1, offset: 0 })).items[0]!;
    expect(done).toMatchObject({ status: "succeeded", attempt_count: 3, next_attempt_at: null });
    expect(receiver.received.map((r) => r.answered)).toEqual([500, 500, 200]);
    expect(await db.job.count()).toBe(0);
  });

  it("sends a test event of the endpoint's first type, signed with both secrets during a roll's overlap", async () => {
    const endpoint = await createEndpoint(services, owner, { url: receiver.url, event_types: ["venue.stale", "venue.recovered"] }, origin);
    const rolled = await rollEndpointSecret(services, owner, endpoint.id, 24, origin, now());
    expect(rolled.secret).not.toBe(endpoint.secret);
    expect(rolled.previous_secret_expires_at).toBe(new Date(clock + 24 * 3_600_000).toISOString());
    const delivery = await testEvent(endpoint.id);
    expect(delivery).toMatchObject({ event_type: "venue.stale", status: "pending" });
    await runDue();
    const [request] = receiver.received;
    expect(JSON.parse(request!.body)).toMatchObject({ id: delivery.event_id, type: "venue.stale", mode: "live", test: true, data: { status: "stale" } });
    const timestamp = Number(request!.headers["webhook-timestamp"]);
    expect(request!.headers["webhook-signature"]).toBe(
      [rolled.secret, endpoint.secret].map((secret) => signature(secret, delivery.id, timestamp, request!.body)).join(" "),
    );
    // After the overlap only the new secret signs.
    clock += 25 * 3_600_000;
    await testEvent(endpoint.id);
    await runDue();
    const second = receiver.received[1]!;
    expect(second.headers["webhook-signature"]).toBe(signature(rolled.secret, String(second.headers["webhook-id"]), Number(second.headers["webhook-timestamp"]), second.body));
    expect(await db.auditEvent.count({ where: { subjectId: owner.userId, action: { in: ["webhook.created", "webhook.secret_rolled"] } } })).toBe(2);
  });

  it("sends a test event once: a failure is its result, never retried, to a disabled endpoint too", async () => {
    const endpoint = await createEndpoint(services, owner, { url: receiver.url, event_types: ["opportunity.opened"] }, origin);
    await db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { enabled: false } });
    receiver.answer = () => ({ status: 500 });
    const delivery = await testEvent(endpoint.id);
    expect(await runDue()).toBe(1);
    for (let hour = 0; hour < 80; hour += 4) {
      clock += 4 * 3_600_000;
      expect(await runDue()).toBe(0);
    }
    expect(receiver.received).toHaveLength(1);
    const [after] = (await listDeliveries(services, owner, endpoint.id, { limit: 1, offset: 0 })).items;
    expect(after).toMatchObject({ id: delivery.id, status: "failed", attempt_count: 1, next_attempt_at: null });
    expect(after!.attempts.map((a) => [a.status_code, a.manual])).toEqual([[500, false]]);
  });

  it("disables an endpoint failing for 3 days, with an audit entry, and a success in between starts the count afresh", async () => {
    const endpoint = await createEndpoint(services, owner, { url: receiver.url, event_types: ["opportunity.opened"] }, origin);
    receiver.answer = () => ({ status: 500 });
    await testEvent(endpoint.id);
    await runDue();
    const start = clock;
    expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).failingSince?.getTime()).toBe(start);

    // Two days on, a success clears the failure; a failure a day later starts a new count.
    clock = start + 2 * 86_400_000;
    receiver.answer = () => ({ status: 204 });
    await testEvent(endpoint.id);
    await runDue();
    expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).failingSince).toBeNull();
    receiver.answer = () => ({ status: 500 });
    clock = start + 3 * 86_400_000;
    const restart = clock;
    await testEvent(endpoint.id);
    await runDue();
    clock = restart + DISABLE_AFTER_FAILING_MS - 60_000;
    await testEvent(endpoint.id);
    await runDue();
    expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).enabled).toBe(true);

    clock = restart + DISABLE_AFTER_FAILING_MS;
    await testEvent(endpoint.id);
    const logs = captureLogs();
    await runDue().finally(logs.restore);
    const mail = logs.records().find((r) => (r.mail as { subject?: string } | undefined)?.subject === "A webhook endpoint was disabled")?.mail as { to: string; text: string } | undefined;
    expect(mail?.to).toBe((await db.user.findUniqueOrThrow({ where: { id: owner.userId } })).email);
    expect(mail?.text).toContain(endpoint.id);
    const disabled = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(disabled).toMatchObject({ enabled: false, disabledReason: "failing" });
    const audit = await db.auditEvent.findMany({ where: { subjectId: owner.userId, action: "webhook.disabled" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: null });
    expect(audit[0]!.target).toContain(endpoint.id);
    // The account is told by an event of its own (and an e-mail, logged here without SMTP_URL).
    const notices = await db.marketEvent.findMany({ where: { type: "webhook_endpoint.disabled", userId: owner.userId } });
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ mode: "LIVE" });
    expect(notices[0]!.data).toMatchObject({ endpoint: { id: endpoint.id, url: receiver.url }, reason: "failing", failing_since: new Date(restart).toISOString() });
    expect(EVENT_DATA_SCHEMAS["webhook_endpoint.disabled"].safeParse(notices[0]!.data).success).toBe(true);

    // A disabled endpoint gets no new events, and its pending retries end without another request.
    const before = receiver.received.length;
    await appendEvent();
    expect((await dispatchEvents(db)).deliveries).toBe(0);
    clock += 86_400_000;
    await runDue();
    expect(receiver.received.length).toBe(before);
    expect(await db.webhookDelivery.count({ where: { endpointId: endpoint.id, status: "pending" } })).toBe(0);
  });

  it("gives up after the schedule's last attempt within 3 days", async () => {
    const endpoint = await createEndpoint(services, owner, { url: receiver.url, event_types: ["opportunity.opened"] }, origin);
    receiver.answer = () => ({ status: 500 });
    await appendEvent();
    await dispatchEvents(db);
    for (let hour = 0; hour < 80; hour += 1) {
      await runDue();
      clock += 3_600_000;
    }
    const [delivery] = (await listDeliveries(services, owner, endpoint.id, { limit: 1, offset: 0 })).items;
    expect(delivery).toMatchObject({ status: "failed", attempt_count: 14, next_attempt_at: null });
    expect(receiver.received).toHaveLength(14);
    expect(await db.job.count()).toBe(0);
  });

  it("forgets finished deliveries after 30 days, keeping pending ones", async () => {
    const endpoint = await createEndpoint(services, owner, { url: receiver.url, event_types: ["opportunity.opened"] }, origin);
    const done = await testEvent(endpoint.id);
    await runDue();
    receiver.answer = () => ({ status: 500 });
    await appendEvent();
    await dispatchEvents(db);
    await runDue();
    const pending = (await listDeliveries(services, owner, endpoint.id, { limit: 1, offset: 0, status: "pending" })).items[0]!;
    const later = new Date(Date.now() + DELIVERY_RETENTION_MS + 60_000);
    expect(await deleteOldDeliveries(db, new Date(Date.now() + DELIVERY_RETENTION_MS - 60_000))).toBe(0);
    expect(await deleteOldDeliveries(db, later)).toBeGreaterThanOrEqual(1);
    expect(await db.webhookDelivery.findUnique({ where: { id: done.id } })).toBeNull();
    expect(await db.webhookAttempt.count({ where: { deliveryId: done.id } })).toBe(0);
    expect(await db.webhookDelivery.findUnique({ where: { id: pending.id } })).not.toBeNull();
  });
});
