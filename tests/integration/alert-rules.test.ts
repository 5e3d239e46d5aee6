import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAlertRule, type AlertOwner } from "@/lib/alerts/alert-rules";
import { evaluateAlerts } from "@/lib/alerts/evaluate-alerts";
import { evaluateRoundAlerts } from "@/lib/alerts/evaluate-round-alerts";
import type { Db } from "@/lib/db";
import { appendEventStatements } from "@/lib/events/append-events";
import type { NewEvent } from "@/lib/events/event-data";
import { eventId, type PublicEvent } from "@/lib/events/event-types";
import { claimJobs } from "@/lib/jobs/job-queue";
import type { KeyMode } from "@/lib/keys/mode";
import { pack } from "@/lib/market/opportunities/store";
import { sandboxItems } from "@/lib/market/sandbox/sandbox-snapshot";
import { planOf } from "@/lib/plans";
import { DELIVERY_QUEUE } from "@/lib/webhooks/delivery-queue";
import { deliverWebhook } from "@/lib/webhooks/deliver-webhook";
import { dispatchEvents } from "@/lib/webhooks/dispatch-events";
import { startWebhooks } from "@/lib/alerts/start-webhooks";
import { readWebhookConfig } from "@/lib/webhooks/webhook-config";
import { createEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { signature } from "@/lib/webhooks/webhook-signature";
import { apiServerForFile } from "@/tests/support/api-server-for-file";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";
import { expectEnvelope } from "./helpers/api-envelope";
import { createKeyFor, createUser } from "@/tests/support/api-fixtures";

// Alert rules end to end: /v1/alert-rules (CRUD, caps, permissions, modes), and evaluation of the
// event log: an alert.triggered event written once per match outside the cool-down, delivered to the
// rule's endpoint on a loopback receiver, seen by its account's /v1/events and stream only.

const api = apiServerForFile({ STREAM_HEARTBEAT_MS: "100", STREAM_POLL_MS: "20" });
let db: Db;
const origin = { ip: "203.0.113.7", userAgent: "vitest" };
// Endpoints on the loopback receiver need private URLs allowed; the others are checked as in production.
const endpointServices = (allowPrivate: boolean) => ({ ...api.services, allowPrivateWebhookUrls: allowPrivate });

let desk: { id: string; live: string; test: string; owner: AlertOwner };
let other: { id: string; live: string };
let pro: { id: string; live: string };

beforeAll(async () => {
  db = api.db;
  const deskUser = await createUser(db, "desk");
  desk = {
    id: deskUser.id,
    live: (await createKeyFor(db, deskUser.id)).secret,
    test: (await createKeyFor(db, deskUser.id, { mode: "test" })).secret,
    owner: { userId: deskUser.id, mode: "live", tier: "desk" },
  };
  const otherUser = await createUser(db, "desk");
  other = { id: otherUser.id, live: (await createKeyFor(db, otherUser.id)).secret };
  const proUser = await createUser(db, "pro");
  pro = { id: proUser.id, live: (await createKeyFor(db, proUser.id)).secret };
});

async function call(method: string, path: string, key: string, body?: unknown) {
  const response = await api.app.fetch(
    new Request(`http://localhost${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body !== undefined && { "Content-Type": "application/json" }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    }),
  );
  return { status: response.status, answer: expectEnvelope(response.status, response.headers, await response.text(), `${method} ${path}`) };
}

const dataOf = <T>(result: Awaited<ReturnType<typeof call>>): T => {
  if (result.answer.kind !== "success") throw new Error(JSON.stringify(result.answer.error));
  return result.answer.data as T;
};

describe("/v1/alert-rules", () => {
  it("creates, lists, reads, changes and deletes a rule with a Desk key, in the key's mode only", async () => {
    const created = await call("POST", "/v1/alert-rules", desk.live, { name: "BTC wide", kind: "opportunity", symbol: "BTC", min_net_apr: 15, exchanges: ["binance", "okx"] });
    expect(created.status).toBe(201);
    const rule = dataOf<{ id: string }>(created);
    expect(rule).toMatchObject({ mode: "live", name: "BTC wide", kind: "opportunity", symbol: "BTC", min_net_apr: 15, min_paid_share_7d: null, exchanges: ["binance", "okx"], endpoint_ids: [], cooldown_minutes: 60, enabled: true });

    const list = dataOf<{ items: { id: string }[]; total: number }>(await call("GET", "/v1/alert-rules", desk.live));
    expect(list.items.map((r) => r.id)).toContain(rule.id);
    expect(dataOf(await call("GET", `/v1/alert-rules/${rule.id}`, desk.live))).toMatchObject({ id: rule.id });

    // The test key, and another account, see nothing of it.
    expect((await call("GET", `/v1/alert-rules/${rule.id}`, desk.test)).status).toBe(404);
    expect(dataOf<{ items: unknown[] }>(await call("GET", "/v1/alert-rules", desk.test)).items).toEqual([]);
    expect((await call("GET", `/v1/alert-rules/${rule.id}`, other.live)).status).toBe(404);
    expect((await call("PATCH", `/v1/alert-rules/${rule.id}`, other.live, { enabled: false })).status).toBe(404);
    expect((await call("DELETE", `/v1/alert-rules/${rule.id}`, other.live)).status).toBe(404);

    const changed = dataOf(await call("PATCH", `/v1/alert-rules/${rule.id}`, desk.live, { enabled: false, min_net_apr: null, cooldown_minutes: 5 }));
    expect(changed).toMatchObject({ enabled: false, min_net_apr: null, cooldown_minutes: 5, symbol: "BTC" });
    // Audited as its creation and deletion are: the change and the fields it touched.
    const audited = await db.auditEvent.findFirstOrThrow({ where: { subjectId: desk.id, action: "alert_rule.updated" } });
    expect(audited.target).toMatch(new RegExp(`^${rule.id} \\(.+\\): `));
    expect(audited.target!.split(": ")[1]!.split(", ").sort()).toEqual(["cooldown_minutes", "enabled", "min_net_apr"]);

    expect(dataOf(await call("DELETE", `/v1/alert-rules/${rule.id}`, desk.live))).toEqual({ id: rule.id, deleted: true });
    expect((await call("GET", `/v1/alert-rules/${rule.id}`, desk.live)).status).toBe(404);
  });

  it("lets Pro keys of either mode manage rules and webhook endpoints, as the plan allows live; a read-only Desk key stays read-only", async () => {
    await createAlertRule(api.services, { userId: pro.id, mode: "live", tier: "pro" }, { name: "venues", kind: "venue", endpoint_ids: [], cooldown_minutes: 60, enabled: true }, origin);
    expect(dataOf<{ items: unknown[] }>(await call("GET", "/v1/alert-rules", pro.live)).items).toHaveLength(1);
    const proTest = (await createKeyFor(db, pro.id, { mode: "test" })).secret;
    for (const key of [pro.live, proTest]) {
      const endpoint = dataOf<{ id: string; mode: string }>(await call("POST", "/v1/webhook-endpoints", key, { url: "https://example.com/hook", event_types: ["venue.stale"] }));
      const rule = dataOf<{ id: string }>(await call("POST", "/v1/alert-rules", key, { name: "x", kind: "venue", endpoint_ids: [endpoint.id] }));
      expect(dataOf(await call("PATCH", `/v1/alert-rules/${rule.id}`, key, { enabled: false }))).toMatchObject({ enabled: false });
      expect(dataOf<{ items: unknown[] }>(await call("GET", "/v1/webhook-endpoints", key)).items).toHaveLength(1);
      expect((await call("POST", `/v1/webhook-endpoints/${endpoint.id}/roll-secret`, key)).status).toBe(200);
      expect((await call("DELETE", `/v1/alert-rules/${rule.id}`, key)).status).toBe(200);
    }
    const readOnlyDesk = (await createKeyFor(db, desk.id, { permissions: ["opportunities:read"] })).secret;
    expect((await call("POST", "/v1/alert-rules", readOnlyDesk, { name: "x", kind: "venue" })).status).toBe(403);
    expect((await call("GET", "/v1/webhook-endpoints", readOnlyDesk)).status).toBe(403);
  });

  it("rolls a webhook secret with no body, an empty one or {}, and still refuses a body that is not JSON", async () => {
    const endpoint = dataOf<{ id: string }>(await call("POST", "/v1/webhook-endpoints", desk.test, { url: "https://example.com/roll", event_types: ["venue.stale"] }));
    const path = `http://localhost/v1/webhook-endpoints/${endpoint.id}/roll-secret`;
    const roll = (init: RequestInit) => api.app.fetch(new Request(path, { method: "POST", ...init, headers: { Authorization: `Bearer ${desk.test}`, ...init.headers } }));
    expect((await roll({})).status).toBe(200);
    expect((await roll({ body: "", headers: { "Content-Type": "application/json" } })).status).toBe(200);
    expect((await roll({ body: "{}", headers: { "Content-Type": "application/json" } })).status).toBe(200);
    const withOverlap = await roll({ body: JSON.stringify({ overlap_hours: 0 }), headers: { "Content-Type": "application/json" } });
    expect(((await withOverlap.json()) as { data: { previous_secret_expires_at: unknown } }).data.previous_secret_expires_at).toBeNull();
    expect((await roll({ body: "{}", headers: { "Content-Type": "text/plain" } })).status).toBe(400);
    expect((await roll({ body: "{", headers: { "Content-Type": "application/json" } })).status).toBe(400);
  });

  it("refuses a condition the kind does not use, and an endpoint of another mode or account, naming the field", async () => {
    const wrong = await call("POST", "/v1/alert-rules", desk.live, { name: "x", kind: "venue", min_net_apr: 5 });
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.answer)).toContain("min_net_apr");
    const testEndpoint = await createEndpoint(endpointServices(false), { ...desk.owner, mode: "test" }, { url: "https://example.com/a", event_types: ["venue.stale"] }, origin);
    const foreign = await call("POST", "/v1/alert-rules", desk.live, { name: "x", kind: "venue", endpoint_ids: [testEndpoint.id] });
    expect(foreign.status).toBe(400);
    expect(JSON.stringify(foreign.answer)).toContain("endpoint_ids");
    const accepted = await call("POST", "/v1/alert-rules", desk.test, { name: "x", kind: "venue", endpoint_ids: [testEndpoint.id] });
    expect(dataOf(accepted)).toMatchObject({ mode: "test", endpoint_ids: [testEndpoint.id] });
    // An id PostgreSQL could not even compare (it holds a NUL) is refused as input, not a 500.
    const nul = await call("POST", "/v1/alert-rules", desk.live, { name: "x", kind: "venue", endpoint_ids: ["\u0000"] });
    expect(nul.status).toBe(400);
    expect(JSON.stringify(nul.answer)).toContain("endpoint_ids");
  });

  it("holds a Pro account to 5 rules per mode with a 403 naming the cap", async () => {
    const user = await createUser(db, "pro");
    const owner: AlertOwner = { userId: user.id, mode: "live", tier: "pro" };
    const input = { name: "r", kind: "venue" as const, endpoint_ids: [], cooldown_minutes: 60, enabled: true };
    for (let i = 0; i < planOf("pro").alertRules; i++) await createAlertRule(api.services, owner, input, origin);
    await expect(createAlertRule(api.services, owner, input, origin)).rejects.toMatchObject({
      code: "FORBIDDEN",
      status: 403,
      message: "Your plan allows 5 alert rules: delete one to add another",
    });
    // The other mode has a cap of its own.
    await createAlertRule(api.services, { ...owner, mode: "test" }, input, origin);
    const free = await createUser(db, "free");
    await expect(createAlertRule(api.services, { userId: free.id, mode: "live", tier: "free" }, input, origin)).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("holds a Pro account to its webhook endpoints with a 403 naming the cap", async () => {
    const user = await createUser(db, "pro");
    const owner = { userId: user.id, mode: "live" as const, tier: "pro" as const };
    const input = { url: "https://hooks.example.com/cap", event_types: ["venue.stale" as const] };
    for (let i = 0; i < planOf("pro").webhookEndpoints; i++) await createEndpoint(endpointServices(false), owner, input, origin);
    await expect(createEndpoint(endpointServices(false), owner, input, origin)).rejects.toMatchObject({
      code: "FORBIDDEN",
      status: 403,
      message: `Your plan allows ${planOf("pro").webhookEndpoints} webhook endpoints: delete one to add another`,
    });
  });
});

describe("alert evaluation", () => {
  let receiver: WebhookReceiver;
  beforeEach(async () => {
    receiver = await startWebhookReceiver();
    // Each test reads only the events it writes, with only its own rules enabled.
    await evaluateAlerts(db);
    await dispatchEvents(db);
    await db.alertRule.updateMany({ data: { enabled: false } });
    await db.job.deleteMany();
  });
  afterEach(() => receiver.close());

  const stale = (exchange: string): NewEvent => ({ type: "venue.stale", data: { exchange, status: "stale", last_success_at: null, error: "timeout" } });

  async function append(mode: KeyMode, events: NewEvent[]): Promise<bigint[]> {
    const before = await db.marketEvent.findFirst({ orderBy: { sequence: "desc" } });
    await db.$transaction(appendEventStatements(db, mode, events));
    const rows = await db.marketEvent.findMany({ where: { sequence: { gt: before?.sequence ?? 0n } }, orderBy: { sequence: "asc" } });
    return rows.map((r) => r.sequence);
  }

  async function runDue() {
    const jobs = await claimJobs(db, DELIVERY_QUEUE, 50, 40_000, new Date());
    for (const job of jobs) await deliverWebhook(db, job, { allowPrivate: true, timeoutMs: 5_000 });
    return jobs.length;
  }

  const alertsOf = (userId: string) => db.marketEvent.findMany({ where: { userId, type: "alert.triggered" }, orderBy: { sequence: "asc" } });

  it("writes alert.triggered once for a match, delivers it to the chosen endpoint, and shows it to its account alone", async () => {
    // Endpoints of earlier tests subscribe to venue.stale: only this one may receive anything.
    await db.webhookEndpoint.updateMany({ data: { enabled: false } });
    const endpoint = await createEndpoint(endpointServices(true), desk.owner, { url: `${receiver.url}/alerts`, event_types: ["opportunity.closed"] }, origin);
    const rule = await createAlertRule(
      api.services,
      desk.owner,
      { name: "gate stale", kind: "venue", exchanges: ["gate"], endpoint_ids: [endpoint.id], cooldown_minutes: 60, enabled: true },
      origin,
    );
    const before = (await alertsOf(desk.id)).length;
    const [low, match] = await append("live", [stale("bybit"), stale("gate")]);
    await append("test", [stale("gate")]);
    expect(await evaluateAlerts(db)).toMatchObject({ alerts: 1, deliveries: 1 });
    expect(await evaluateAlerts(db)).toMatchObject({ events: 0, alerts: 0 });
    const [after] = await append("live", [stale("okx")]);
    await evaluateAlerts(db);

    const alerts = (await alertsOf(desk.id)).slice(before);
    expect(alerts).toHaveLength(1);
    const alert = alerts[0]!;
    expect(alert.mode).toBe("LIVE");
    expect(alert.data).toMatchObject({ rule: { id: rule.id, name: "gate stale" }, subject: "gate", transition: "entered", opportunity: null, event: { id: eventId(match!), type: "venue.stale" } });
    expect(JSON.stringify(alert.data)).not.toContain(eventId(low!));

    // The dispatcher does not send it to endpoints subscribing to types; the rule's endpoint gets it, signed, once.
    await dispatchEvents(db);
    expect(await runDue()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const request = receiver.received[0]!;
    expect(request.path).toBe("/alerts");
    const body = JSON.parse(request.body) as PublicEvent;
    expect(body).toMatchObject({ id: eventId(alert.sequence), type: "alert.triggered", mode: "live", data: alert.data });
    expect(request.headers["webhook-signature"]).toBe(signature(endpoint.secret, String(request.headers["webhook-id"]), Number(request.headers["webhook-timestamp"]), request.body));

    // GET /v1/events: the owner sees it between the market's events, another account does not.
    const query = `/v1/events?after=${eventId(low! - 1n)}&limit=1000`;
    const mine = dataOf<{ items: PublicEvent[] }>(await call("GET", query, desk.live)).items.map((e) => e.id);
    expect(mine).toContain(eventId(alert.sequence));
    expect(mine).toContain(eventId(after!));
    const theirs = dataOf<{ items: PublicEvent[] }>(await call("GET", query, other.live)).items.map((e) => e.id);
    expect(theirs).toContain(eventId(after!));
    expect(theirs).not.toContain(eventId(alert.sequence));
    expect(dataOf<{ items: PublicEvent[] }>(await call("GET", `/v1/events?types=alert.triggered&after=${eventId(low!)}`, other.live)).items).toEqual([]);

    // GET /v1/stream, replaying from before: the owner's stream carries it, another account's skips it.
    const streamed = async (key: string) => {
      const response = await fetch(`${api.baseUrl}/v1/stream?after=${eventId(low! - 1n)}`, { headers: { Authorization: `Bearer ${key}` } });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      let text = "";
      while (!text.includes(`id: ${eventId(after!)}\n`)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      await reader.cancel();
      return text;
    };
    expect(await streamed(desk.live)).toContain(`id: ${eventId(alert.sequence)}\nevent: alert.triggered\n`);
    expect(await streamed(other.live)).not.toContain(eventId(alert.sequence));
  });

  describe("opportunity rules, through published rounds", () => {
    const template = sandboxItems(new Date("2026-11-20T12:00:00.000Z")).items[0]!;
    const pairId = `ZZT-${template.long.exchange}-${template.short.exchange}`;
    let version = 1_000;
    /** Publishes a live set holding the pair at `netApr` (absent when null), as a round does, and evaluates it. */
    async function round(netApr: number | null) {
      const items = netApr === null ? [] : [{ ...template, id: pairId, symbol: "ZZT", net_apr: netApr }];
      const data = { version: ++version, itemsVersion: version, sample: false, asOf: new Date(), items: (await pack(items)).packed };
      await db.opportunitySet.upsert({ where: { id: "live" }, create: { id: "live", ...data }, update: data });
      return evaluateRoundAlerts(db, { liveStaleAfterMs: 180_000 });
    }
    const transitions = async (ruleId: string) =>
      (await db.marketEvent.findMany({ where: { type: "alert.triggered" }, orderBy: { sequence: "asc" } }))
        .map((e) => e.data as { rule: { id: string }; transition: string; opportunity: { net_apr: number } | null })
        .filter((d) => d.rule.id === ruleId)
        .map((d) => `${d.transition}${d.opportunity ? ` ${d.opportunity.net_apr}` : ""}`);

    it("alerts once per crossing of every round, not per change event; keeps quiet while inside; clears beyond the margin when asked", async () => {
      const endpoint = await createEndpoint(endpointServices(true), desk.owner, { url: `${receiver.url}/crossings`, event_types: ["venue.stale"] }, origin);
      const input = { kind: "opportunity" as const, symbol: "ZZT", min_net_apr: 50, endpoint_ids: [endpoint.id], cooldown_minutes: 0, enabled: true };
      const quiet = await createAlertRule(api.services, desk.owner, { ...input, name: "ZZT over 50" }, origin);
      const clears = await createAlertRule(api.services, desk.owner, { ...input, name: "ZZT over 50, and back", notify_on_clear: true }, origin);
      // 185 to 216 for ten rounds: one alert.
      for (const netApr of [185, 201, 216, 190, 199, 185, 210, 216, 188, 200]) await round(netApr);
      expect(await transitions(quiet.id)).toEqual(["entered 185"]);
      // 16 crossings of 50 by 3 points, smaller than any `opportunity.updated`: 16 alerts.
      for (let i = 0; i < 16; i++) {
        await round(48.5);
        await round(51.5);
      }
      expect(await transitions(quiet.id)).toEqual(["entered 185", ...Array<string>(16).fill("entered 51.5")]);
      // Within the 1-point margin it stays inside; beyond it, or gone from the set, it clears.
      await round(49.2);
      await round(50.4);
      await round(null);
      expect((await transitions(clears.id)).slice(-3)).toEqual(["cleared 48.5", "entered 51.5", "cleared"]);
      expect(await db.alertRuleState.count({ where: { ruleId: clears.id } })).toBe(0);
      // The state is stored: a round evaluated by a fresh call (another process, a restart) repeats nothing.
      await round(60);
      expect(await round(61)).toMatchObject({ rounds: 1, alerts: 0 });
      expect(await round(62)).toMatchObject({ rounds: 1, alerts: 0 });
      expect(await db.alertRuleState.findMany({ where: { ruleId: quiet.id }, select: { subject: true } })).toEqual([{ subject: pairId }]);
      // A round already evaluated is not evaluated again.
      expect(await evaluateRoundAlerts(db, { liveStaleAfterMs: 180_000 })).toMatchObject({ rounds: 0 });
      // Each alert was queued for the rules' endpoint.
      expect(await db.webhookDelivery.count({ where: { endpointId: endpoint.id } })).toBe((await transitions(quiet.id)).length + (await transitions(clears.id)).length);
    }, 120_000);
  });

  it("runs where webhooks run: the service a server or worker starts raises the alert and delivers it", async () => {
    const endpoint = await createEndpoint(endpointServices(true), desk.owner, { url: `${receiver.url}/service`, event_types: ["opportunity.closed"] }, origin);
    await createAlertRule(api.services, desk.owner, { name: "gate stale", kind: "venue", exchanges: ["gate"], endpoint_ids: [endpoint.id], cooldown_minutes: 60, enabled: true }, origin);
    await append("live", [
      { type: "venue.stale", data: { exchange: "bybit", status: "stale", last_success_at: null, error: "timeout" } },
      { type: "venue.stale", data: { exchange: "gate", status: "stale", last_success_at: null, error: "timeout" } },
    ]);
    const service = startWebhooks({ db, config: readWebhookConfig({ ...process.env, WEBHOOK_ALLOW_PRIVATE_URLS: "1", WEBHOOK_POLL_MS: "50" }) });
    try {
      await receiver.waitFor(1);
      await service.idle();
    } finally {
      await service.stop();
    }
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.path).toBe("/service");
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ type: "alert.triggered", data: { rule: { name: "gate stale" }, subject: "gate" } });
  });

  it("reaches a live stream of its account as it is written", async () => {
    await createAlertRule(api.services, desk.owner, { name: "okx stale", kind: "venue", exchanges: ["okx"], endpoint_ids: [], cooldown_minutes: 60, enabled: true }, origin);
    const response = await fetch(`${api.baseUrl}/v1/stream?types=alert.triggered`, { headers: { Authorization: `Bearer ${desk.live}` } });
    const reader = response.body!.getReader();
    let text = "";
    // Past the preamble: the stream has subscribed to the feed.
    while (!text.includes(": connected")) text += new TextDecoder().decode((await reader.read()).value);
    await append("live", [{ type: "venue.stale", data: { exchange: "okx", status: "stale", last_success_at: null, error: "timeout" } }]);
    await evaluateAlerts(db);
    while (!text.includes("event: alert.triggered")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
    expect(text).toContain('"subject":"okx"');
  });

  it("suppresses a flapping subject within the cool-down, per rule and per subject", async () => {
    await createAlertRule(api.services, desk.owner, { name: "any venue", kind: "venue", endpoint_ids: [], cooldown_minutes: 60, enabled: true }, origin);
    const before = (await alertsOf(desk.id)).length;
    await append("live", [stale("phemex")]);
    await evaluateAlerts(db);
    // It goes stale again, twice, and another venue does: one more alert, for the other venue.
    await append("live", [stale("phemex"), stale("coinex")]);
    await evaluateAlerts(db);
    await append("live", [stale("phemex")]);
    await evaluateAlerts(db);
    const subjects = (await alertsOf(desk.id)).slice(before).map((a) => (a.data as { subject: string }).subject);
    expect(subjects).toEqual(["phemex", "coinex"]);
    // Once the cool-down has passed (its record moved back an hour), the same subject alerts again.
    await db.alertCooldown.updateMany({ data: { triggeredAt: new Date(Date.now() - 3_600_001) } });
    await append("live", [stale("phemex")]);
    await evaluateAlerts(db);
    expect((await alertsOf(desk.id)).length - before).toBe(3);
  });

  it("writes nothing when its transaction fails part way, and everything once when run again", async () => {
    const endpoint = await createEndpoint(endpointServices(true), desk.owner, { url: `${receiver.url}/atomic`, event_types: ["venue.stale"] }, origin);
    const rule = await createAlertRule(api.services, desk.owner, { name: "kucoinfutures", kind: "venue", exchanges: ["kucoinfutures"], endpoint_ids: [endpoint.id], cooldown_minutes: 60, enabled: true }, origin);
    const cursor = async () => (await db.alertCursor.findUniqueOrThrow({ where: { id: "alerts" } })).sequence;
    const before = { cursor: await cursor(), alerts: (await alertsOf(desk.id)).length };
    const [event] = await append("live", [stale("kucoinfutures")]);
    // The deliveries are written last: failing there, after the alert event and the cool-down, is the worst place to stop.
    await db.$executeRawUnsafe(`CREATE FUNCTION refuse_delivery() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused for the test'; END $$ LANGUAGE plpgsql`);
    await db.$executeRawUnsafe(`CREATE TRIGGER refuse_delivery BEFORE INSERT ON "WebhookDelivery" FOR EACH ROW EXECUTE FUNCTION refuse_delivery()`);
    try {
      await expect(evaluateAlerts(db)).rejects.toThrow(/refused for the test/);
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER refuse_delivery ON "WebhookDelivery"`);
      await db.$executeRawUnsafe(`DROP FUNCTION refuse_delivery()`);
    }
    expect(await cursor()).toBe(before.cursor);
    expect((await alertsOf(desk.id)).length).toBe(before.alerts);
    expect(await db.alertCooldown.count({ where: { ruleId: rule.id } })).toBe(0);

    expect(await evaluateAlerts(db)).toMatchObject({ alerts: 1, deliveries: 1 });
    expect(await cursor()).toBe(event);
    expect((await alertsOf(desk.id)).length).toBe(before.alerts + 1);
    expect(await db.webhookDelivery.count({ where: { endpointId: endpoint.id } })).toBe(1);
  });

  it("keeps its place in the stored cursor: an evaluator started afresh repeats nothing and misses nothing", async () => {
    await createAlertRule(api.services, desk.owner, { name: "three", kind: "venue", exchanges: ["mexc", "htx", "bitget"], endpoint_ids: [], cooldown_minutes: 1, enabled: true }, origin);
    const before = (await alertsOf(desk.id)).length;
    const [first] = await append("live", [stale("mexc")]);
    await evaluateAlerts(db, 500);
    const cursor = await db.alertCursor.findUniqueOrThrow({ where: { id: "alerts" } });
    expect(cursor.sequence).toBe(first);
    // Written while no evaluator runs; then one runs, as after a restart, in small batches.
    await append("live", [stale("htx"), stale("bitget")]);
    expect(await evaluateAlerts(db, 1)).toMatchObject({ events: 1, alerts: 1 });
    expect(await evaluateAlerts(db, 1)).toMatchObject({ events: 1, alerts: 1 });
    expect(await evaluateAlerts(db, 1)).toMatchObject({ events: 0 });
    expect((await alertsOf(desk.id)).slice(before).map((a) => (a.data as { subject: string }).subject)).toEqual(["mexc", "htx", "bitget"]);
  });
});
