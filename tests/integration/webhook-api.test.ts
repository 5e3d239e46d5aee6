import { describe, expect, it } from "vitest";
import { createAlertRule } from "@/lib/alerts/alert-rules";
import { EVENT_DATA_SCHEMAS } from "@/lib/events/event-data";
import { MemoryRateLimiter } from "@/lib/ratelimit";
import { dispatchEvents } from "@/lib/webhooks/dispatch-events";
import { MANUAL_SENDS_PER_MINUTE } from "@/lib/webhooks/manual-sends";
import { actorFromSession } from "@/lib/actor";
import { redeliver, sendTestEvent } from "@/lib/webhooks/webhook-deliveries";
import { createEndpoint, rollEndpointSecret, updateEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { createKeyFor, createUser } from "@/tests/support/api-fixtures";
import { dataOf, errorOf, marketApiForFile, type Json } from "./helpers/market-api";
import { withRoomInWindow } from "@/tests/support/fixed-window";

// The webhook routes of /v1 as a client meets them, and the rules both doors (/v1 and Account →
// Webhooks, which call the same domain operations) share: manual sends throttled per account,
// live webhooks and alert rules only for verified accounts, secrets never replayed, test events of
// a chosen type in that type's real shape.

const api = marketApiForFile();
const origin = { ip: "203.0.113.7", userAgent: "vitest" };
// The operations with the services' database, refusing private URLs as production does, or counting manual sends on `limiter`.
const publicOnly = () => ({ ...api.services, allowPrivateWebhookUrls: false });
const limitedBy = (limiter: MemoryRateLimiter) => ({ ...api.services, limiter });
const body = (value: unknown) => JSON.stringify(value);

/**
 * The limit's window is the clock minute: start a burst where it cannot straddle two. The burst
 * (22 requests) takes under a second alone and a few on a loaded 2-core machine, so 10 s left
 * is room enough; a wider margin only makes more runs wait for the next minute.
 */
const earlyInMinute = () => withRoomInWindow(60_000, 10_000);


async function deskKey(mode: "live" | "test" = "live") {
  const user = await createUser(api.db, "desk");
  return { userId: user.id, key: (await createKeyFor(api.db, user.id, { mode })).secret };
}

async function endpoint(key: string, eventTypes: string[] = ["opportunity.opened"]): Promise<Json> {
  return dataOf(await api.send("POST", "/v1/webhook-endpoints", key, body({ url: "https://hooks.example.com/in", event_types: eventTypes })), 201);
}

describe("test events", () => {
  it("have the type asked for, that type's real shape, test: true and a new id each time", async () => {
    const { key } = await deskKey();
    const created = await endpoint(key, ["venue.stale"]);
    const ids = new Set<string>();
    for (const type of ["funding_interval.changed", "opportunity.closed", "alert.triggered"] as const) {
      const delivery = dataOf(await api.send("POST", `/v1/webhook-endpoints/${created.id}/test`, key, body({ type })), 200);
      expect(delivery.event_type).toBe(type);
      ids.add(delivery.event_id);
      const row = await api.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
      const event = JSON.parse(row.payload);
      expect(event).toMatchObject({ id: delivery.event_id, type, mode: "live", test: true });
      expect(EVENT_DATA_SCHEMAS[type].safeParse(event.data).success, type).toBe(true);
    }
    // Without a type: the endpoint's first one.
    const plain = dataOf(await api.send("POST", `/v1/webhook-endpoints/${created.id}/test`, key, body({})), 200);
    expect(plain.event_type).toBe("venue.stale");
    ids.add(plain.event_id);
    expect(ids.size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^evt_\d{16}$/);
    expect(errorOf(await api.send("POST", `/v1/webhook-endpoints/${created.id}/test`, key, body({ type: "opportunity.nope" })), 400).details?.[0]?.field).toBe("type");
  });
});

describe("manual sends", () => {
  it(`allow ${MANUAL_SENDS_PER_MINUTE} test events and redeliveries a minute per account, then 429 with retry_after`, { timeout: 60_000 }, async () => {
    const { key } = await deskKey();
    const created = await endpoint(key);
    await earlyInMinute();
    let delivery: Json | undefined;
    for (let i = 0; i < MANUAL_SENDS_PER_MINUTE; i++) {
      delivery = dataOf(await api.send("POST", `/v1/webhook-endpoints/${created.id}/test`, key, body({})), 200);
    }
    const refused = await api.send("POST", `/v1/webhook-endpoints/${created.id}/test`, key, body({}));
    const error = errorOf(refused, 429);
    expect(error.code).toBe("RATE_LIMITED");
    expect(error.retry_after).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("retry-after")).toBe(String(error.retry_after));
    errorOf(await api.send("POST", `/v1/webhook-endpoints/${created.id}/deliveries/${delivery!.id}/redeliver`, key), 429);
    expect(await api.db.webhookDelivery.count({ where: { endpointId: created.id } })).toBe(MANUAL_SENDS_PER_MINUTE);
  });

  it("share one count per account between the doors and the modes", async () => {
    const user = await createUser(api.db, "pro");
    const limiter = new MemoryRateLimiter({ now: () => 1_800_000_000_000 });
    const web = actorFromSession({ id: user.id, tier: "pro" });
    const live = await createEndpoint(publicOnly(), web, { url: "https://hooks.example.com/web", event_types: ["venue.stale"] }, origin);
    const test = await createEndpoint(publicOnly(), { ...web, mode: "test" }, { url: "https://hooks.example.com/test", event_types: ["venue.stale"] }, origin);
    const first = await sendTestEvent(limitedBy(limiter), web, live.id);
    for (let i = 1; i < MANUAL_SENDS_PER_MINUTE / 2; i++) await sendTestEvent(limitedBy(limiter), web, live.id);
    for (let i = 0; i < MANUAL_SENDS_PER_MINUTE / 2; i++) await sendTestEvent(limitedBy(limiter), { ...web, mode: "test" }, test.id);
    await expect(redeliver(limitedBy(limiter), web, live.id, first.id)).rejects.toMatchObject({ code: "RATE_LIMITED" });
    await expect(sendTestEvent(limitedBy(limiter), { ...web, mode: "test" }, test.id)).rejects.toMatchObject({ code: "RATE_LIMITED" });
  });
});

describe("unverified accounts", () => {
  it("get no live webhooks or alert rules through either door; test mode stays open", async () => {
    const user = await createUser(api.db, "desk", { verified: false });
    const web = actorFromSession({ id: user.id, tier: "desk" });
    const input = { url: "https://hooks.example.com/unverified", event_types: ["opportunity.opened" as const] };
    await expect(createEndpoint(publicOnly(), web, input, origin)).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/Verify your e-mail/) });
    const rule = { name: "wide", kind: "opportunity" as const, min_net_apr: 50, endpoint_ids: [], cooldown_minutes: 60 };
    await expect(createAlertRule(api.services, web, rule as never, origin)).rejects.toMatchObject({ code: "FORBIDDEN" });
    // /v1 with a live key the account holds from before its address became unverified.
    const liveKey = (await createKeyFor(api.db, user.id)).secret;
    expect(errorOf(await api.send("POST", "/v1/webhook-endpoints", liveKey, body(input)), 403).message).toMatch(/Verify your e-mail/);
    // An endpoint made while verified cannot be tested, redelivered, changed or rolled once unverified.
    await api.db.user.update({ where: { id: user.id }, data: { emailVerifiedAt: new Date() } });
    const made = await createEndpoint(publicOnly(), web, input, origin);
    await api.db.user.update({ where: { id: user.id }, data: { emailVerifiedAt: null } });
    const limiter = new MemoryRateLimiter();
    await expect(sendTestEvent(limitedBy(limiter), web, made.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(updateEndpoint(publicOnly(), web, made.id, { enabled: false }, origin)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(rollEndpointSecret(api.services, web, made.id, 0, origin)).rejects.toMatchObject({ code: "FORBIDDEN" });
    // Test mode does not need the address.
    const testMode = await createEndpoint(publicOnly(), { ...web, mode: "test" }, input, origin);
    expect(testMode.mode).toBe("test");
  });
});

describe("secrets shown once", () => {
  it("are not replayed: a repeat of create or roll-secret with the same Idempotency-Key is 409 naming the endpoint", async () => {
    const { key } = await deskKey();
    const request = body({ url: "https://hooks.example.com/once", event_types: ["opportunity.opened"] });
    const created = dataOf(await api.send("POST", "/v1/webhook-endpoints", key, request, { idempotencyKey: "create-once" }), 201);
    expect(created.secret).toMatch(/^whsec_/);
    const again = errorOf(await api.send("POST", "/v1/webhook-endpoints", key, request, { idempotencyKey: "create-once" }), 409);
    expect(again.code).toBe("IDEMPOTENCY_CONFLICT");
    expect(again.message).toContain(created.id);
    expect(JSON.stringify(again)).not.toContain(created.secret);
    expect(await api.db.webhookEndpoint.count({ where: { url: "https://hooks.example.com/once" } })).toBe(1);

    const rolled = dataOf(await api.send("POST", `/v1/webhook-endpoints/${created.id}/roll-secret`, key, body({ overlap_hours: 0 }), { idempotencyKey: "roll-once" }), 200);
    const repeat = await api.send("POST", `/v1/webhook-endpoints/${created.id}/roll-secret`, key, body({ overlap_hours: 0 }), { idempotencyKey: "roll-once" });
    expect(errorOf(repeat, 409).message).toContain(created.id);
    expect(JSON.stringify(repeat.envelope)).not.toContain(rolled.secret);
    const stored = await api.db.idempotencyRecord.findMany({ where: { key: { in: ["create-once", "roll-once"] } } });
    expect(stored).toHaveLength(2);
    for (const record of stored) expect(JSON.stringify(record.responseBody)).not.toContain("whsec_");
    // The roll ran once: the secret is the one the first answer showed.
    expect((await api.db.webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } })).secret).toBe(rolled.secret);
  });
});

describe("what Stripe and Svix customers expect", () => {
  async function appendMarketEvent(type: "opportunity.opened" | "venue.stale" = "opportunity.opened", createdAt = new Date()) {
    const row = await api.db.marketEvent.create({ data: { mode: "LIVE", type, data: { exchange: "okx" }, createdAt } });
    return `evt_${row.sequence.toString().padStart(16, "0")}`;
  }

  it("reads one event by id, 404 for another mode's, another account's or an unknown one", async () => {
    const { key } = await deskKey();
    const id = await appendMarketEvent();
    const event = dataOf(await api.send("GET", `/v1/events/${id}`, key), 200);
    expect(event).toMatchObject({ id, type: "opportunity.opened", mode: "live" });
    const { key: testKey } = await deskKey("test");
    errorOf(await api.send("GET", `/v1/events/${id}`, testKey), 404);
    errorOf(await api.send("GET", "/v1/events/evt_9999999999999999", key), 404);
    errorOf(await api.send("GET", "/v1/events/nope", key), 404);
    const other = await createUser(api.db, "desk");
    const alert = await api.db.marketEvent.create({ data: { mode: "LIVE", type: "alert.triggered", data: {}, userId: other.id } });
    errorOf(await api.send("GET", `/v1/events/evt_${alert.sequence.toString().padStart(16, "0")}`, key), 404);
  });

  it("filters an endpoint's deliveries by status and event, and lists an event's deliveries across endpoints", async () => {
    const { key } = await deskKey();
    const [a, b] = [await endpoint(key), await endpoint(key)];
    const id = await appendMarketEvent();
    const other = await appendMarketEvent();
    const rows = [
      { endpointId: a.id, eventId: id, status: "failed" },
      { endpointId: b.id, eventId: id, status: "succeeded" },
      { endpointId: a.id, eventId: other, status: "succeeded" },
    ];
    for (const row of rows) await api.db.webhookDelivery.create({ data: { ...row, eventType: "opportunity.opened", payload: "{}" } });
    const failed = dataOf(await api.send("GET", `/v1/webhook-endpoints/${a.id}/deliveries?status=failed`, key), 200);
    expect(failed.items.map((d: Json) => [d.event_id, d.status])).toEqual([[id, "failed"]]);
    const ofEvent = dataOf(await api.send("GET", `/v1/webhook-endpoints/${a.id}/deliveries?event_id=${other}`, key), 200);
    expect(ofEvent.items.map((d: Json) => d.event_id)).toEqual([other]);
    errorOf(await api.send("GET", `/v1/webhook-endpoints/${a.id}/deliveries?status=lost`, key), 400);
    const across = dataOf(await api.send("GET", `/v1/events/${id}/deliveries`, key), 200);
    expect(across.items.map((d: Json) => [d.endpoint_id, d.status])).toEqual([
      [a.id, "failed"],
      [b.id, "succeeded"],
    ]);
    // Another account sees none of them.
    const { key: stranger } = await deskKey();
    expect(dataOf(await api.send("GET", `/v1/events/${id}/deliveries`, stranger), 200).items).toEqual([]);
  });

  it("accepts a wildcard subscription, alone, and delivers every market event type to it", async () => {
    const { key } = await deskKey();
    const all = await endpoint(key, ["*"]);
    expect(all.event_types).toEqual(["*"]);
    errorOf(await api.send("POST", "/v1/webhook-endpoints", key, body({ url: "https://hooks.example.com/in", event_types: ["*", "venue.stale"] })), 400);
    await dispatchEvents(api.db);
    await appendMarketEvent("venue.stale");
    await appendMarketEvent("opportunity.opened");
    await dispatchEvents(api.db);
    const page = dataOf(await api.send("GET", `/v1/webhook-endpoints/${all.id}/deliveries`, key), 200);
    expect(page.items.map((d: Json) => d.event_type).sort()).toEqual(["opportunity.opened", "venue.stale"]);
  });

  it("audits a change of an endpoint, naming the fields and the URL it left", async () => {
    const { key, userId } = await deskKey();
    const created = await endpoint(key);
    dataOf(await api.send("PATCH", `/v1/webhook-endpoints/${created.id}`, key, body({ url: "https://elsewhere.example.com/in", enabled: false })), 200);
    const audited = await api.db.auditEvent.findFirstOrThrow({ where: { subjectId: userId, action: "webhook.updated" } });
    expect(audited.target).toBe(`${created.id} (https://elsewhere.example.com/in): url, enabled, was https://hooks.example.com/in`);
    expect(audited.actorId).toBe(userId);
  });

  it("replays an endpoint's failed and missed deliveries since a time, once per event, enabling it again", async () => {
    const { key } = await deskKey();
    const created = await endpoint(key, ["venue.stale"]);
    await dispatchEvents(api.db);
    dataOf(await api.send("PATCH", `/v1/webhook-endpoints/${created.id}`, key, body({ enabled: false })), 200);
    const missed = await appendMarketEvent("venue.stale");
    await appendMarketEvent("opportunity.opened"); // not its type
    await dispatchEvents(api.db); // disabled: nothing queued for it
    const failed = await api.db.webhookDelivery.create({ data: { endpointId: created.id, eventId: "evt_0000000000000000", eventType: "venue.stale", payload: "{}", status: "failed" } });
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const replay = dataOf(await api.send("POST", `/v1/webhook-endpoints/${created.id}/replay`, key, body({ since }), { idempotencyKey: "replay-1" }), 200);
    expect(replay).toMatchObject({ endpoint_id: created.id, failed_retried: 1, missed_queued: 1, has_more: false });
    // Replaying is what follows a fix: the endpoint is enabled again.
    expect(dataOf(await api.send("GET", `/v1/webhook-endpoints/${created.id}`, key), 200).enabled).toBe(true);
    expect((await api.db.webhookDelivery.findUniqueOrThrow({ where: { id: failed.id } })).status).toBe("pending");
    expect(await api.db.webhookDelivery.count({ where: { endpointId: created.id, eventId: missed } })).toBe(1);
    // The same key replays the answer; a new replay finds nothing left to queue.
    expect(dataOf(await api.send("POST", `/v1/webhook-endpoints/${created.id}/replay`, key, body({ since }), { idempotencyKey: "replay-1" }), 200)).toEqual(replay);
    const again = dataOf(await api.send("POST", `/v1/webhook-endpoints/${created.id}/replay`, key, body({ since })), 200);
    expect(again).toMatchObject({ failed_retried: 0, missed_queued: 0 });
    expect(await api.db.webhookDelivery.count({ where: { endpointId: created.id, eventId: missed } })).toBe(1);
  });

  it("replays from the endpoint's creation when `since` is earlier, even year 0, which the database cannot store", async () => {
    const { key } = await deskKey();
    const created = await endpoint(key, ["venue.stale"]);
    await appendMarketEvent("venue.stale");
    for (const since of ["0000-02-29T23:42:42Z", "1970-01-01T00:00:00Z"]) {
      const replay = dataOf(await api.send("POST", `/v1/webhook-endpoints/${created.id}/replay`, key, body({ since })), 200);
      expect(replay).toMatchObject({ endpoint_id: created.id, since: new Date(since).toISOString() });
    }
  });
});
