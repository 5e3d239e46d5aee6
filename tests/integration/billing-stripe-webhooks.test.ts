// Stripe webhooks, the syncs they trigger, the grace period and start-up reconciliation, against
// the local Stripe stand-in (tests/support/stripe-stand-in.ts): payloads are signed with the
// `stripe` package's own test-header helper, and every read the service makes of Stripe is asserted.
import Stripe from "stripe";
import { auditTrail } from "@/lib/security/audit-trail";
import { beforeAll, describe, expect, it } from "vitest";
import type { StripeBillingProvider } from "@/lib/billing/stripe/stripe-provider";
import { handleStripeWebhook } from "@/lib/billing/stripe/stripe-webhook";
import { snapshotOf } from "@/lib/billing/stripe/subscription-state";
import { applyStripeState } from "@/lib/billing/stripe/sync-customer";
import { expireGracePeriods, reconcileStripeCustomers } from "@/lib/billing/stripe/reconcile";
import type { Db } from "@/lib/db";
import { tierToDb, type Tier } from "@/lib/keys/permissions";
import { captureLogs } from "@/tests/support/capture-logs";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";
import { signedEvent, stripeSubscription, type StripeStandIn } from "@/tests/support/stripe-stand-in";
import { stripeTestBedForFile } from "@/tests/support/stripe-test-bed";

const WEBHOOK_SECRET = "whsec_test_stand_in";
const origin = { ip: "198.51.100.9", userAgent: "Stripe/1.0" };
const DAY = 24 * 60 * 60 * 1000;

const bed = stripeTestBedForFile({ secretKey: "sk_test_stand_in", webhookSecret: WEBHOOK_SECRET, pricePro: "price_pro", priceDesk: "price_desk" });
let standIn: StripeStandIn, db: Db, provider: StripeBillingProvider;

beforeAll(() => {
  ({ standIn, db, provider } = bed);
});

let accounts = 0;
/** An account on `tier`, linked to its own Stripe customer unless `linked: false`. */
async function account(tier: Tier = "free", { linked = true, on = db } = {}) {
  const n = ++accounts;
  const user = await on.user.create({ data: { email: `billing-${n}@example.com`, passwordHash: "not-a-real-hash", tier: tierToDb(tier), emailVerifiedAt: new Date() } });
  const customerId = `cus_test_${n}`;
  if (linked) await on.stripeCustomer.create({ data: { userId: user.id, customerId } });
  return { user, customerId };
}

function deliver(type: string, object: object, options: { id?: string; created?: Date } = {}) {
  const event = signedEvent(WEBHOOK_SECRET, type, object, options);
  return { event, outcome: handleStripeWebhook(db, provider, event.payload, event.signature, origin) };
}

const tierOf = async (userId: string) => (await db.user.findUniqueOrThrow({ where: { id: userId } })).tier;
const trail = (userId: string) => db.auditEvent.findMany({ where: { subjectId: userId, action: "tier.changed" }, orderBy: { at: "asc" } });

describe("webhook signature", () => {
  it("refuses a missing, forged, tampered or outdated signature with 400 and changes nothing", async () => {
    const { user, customerId } = await account("pro");
    const object = stripeSubscription({ id: "sub_forged", customer: customerId, price: "price_desk", status: "canceled" });
    const genuine = signedEvent(WEBHOOK_SECRET, "customer.subscription.deleted", object);
    const forged = signedEvent("whsec_someone_else", "customer.subscription.deleted", object);
    const old = signedEvent(WEBHOOK_SECRET, "customer.subscription.deleted", object, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    const attempts: [string, string | null, string][] = [
      [genuine.payload, null, "Missing Stripe-Signature header"],
      [genuine.payload, "", "Missing Stripe-Signature header"],
      [forged.payload, forged.signature, "Invalid Stripe-Signature"],
      [genuine.payload.replace('"canceled"', '"active"'), genuine.signature, "Invalid Stripe-Signature"],
      [old.payload, old.signature, "Invalid Stripe-Signature"],
      [genuine.payload, "t=1,v1=deadbeef", "Invalid Stripe-Signature"],
    ];
    const before = standIn.requests.length;
    for (const [payload, signature, message] of attempts) {
      await expect(handleStripeWebhook(db, provider, payload, signature, origin)).rejects.toMatchObject({ code: "VALIDATION_ERROR", status: 400, message });
    }
    expect(standIn.requests.length).toBe(before);
    expect(await db.stripeEvent.count({ where: { id: { in: [genuine.id, forged.id, old.id] } } })).toBe(0);
    expect(await tierOf(user.id)).toBe("PRO");
    expect(await trail(user.id)).toEqual([]);
  });
});

describe("malformed signed events", () => {
  it("answers 400 naming the problem, logs it, reads nothing from Stripe and stores nothing", async () => {
    const { user, customerId } = await account("free");
    standIn.subscriptions.set(customerId, [stripeSubscription({ id: "sub_malformed", customer: customerId, price: "price_pro", status: "active" })]);
    const sign = (payload: string) => new Stripe("sk_test_signing_only").webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const valid = JSON.parse(signedEvent(WEBHOOK_SECRET, "customer.subscription.updated", { id: "sub_malformed", object: "subscription", customer: customerId }).payload);
    const variants: [string, string, string][] = [
      ["not JSON", "{not json", "Malformed Stripe event: the body is not JSON"],
      ["no data", JSON.stringify({ ...valid, data: undefined }), "Malformed Stripe event: data: "],
      ["object a string", JSON.stringify({ ...valid, data: { object: "sub_malformed" } }), "Malformed Stripe event: data.object: "],
      ["no id", JSON.stringify({ ...valid, id: undefined }), "Malformed Stripe event: id: "],
      ["created a string", JSON.stringify({ ...valid, created: "yesterday" }), "Malformed Stripe event: created: "],
      ["customer a number", JSON.stringify({ ...valid, data: { object: { ...valid.data.object, customer: 42 } } }), "Malformed Stripe event: data.object.customer: "],
      [
        "client_reference_id an object",
        JSON.stringify({ ...valid, type: "checkout.session.completed", data: { object: { customer: "cus_new_malformed", client_reference_id: { id: user.id } } } }),
        "Malformed Stripe event: data.object.client_reference_id: ",
      ],
      ["metadata not strings", JSON.stringify({ ...valid, data: { object: { customer: "cus_new_malformed", metadata: { account_id: 7 } } } }), "Malformed Stripe event: data.object.metadata.account_id: "],
    ];
    const logs = captureLogs();
    const reads = standIn.requests.length;
    try {
      for (const [what, payload, message] of variants) {
        const outcome = handleStripeWebhook(db, provider, payload, sign(payload), origin);
        await expect(outcome, what).rejects.toMatchObject({ code: "VALIDATION_ERROR", status: 400, message: expect.stringContaining(message) });
      }
      const warnings = logs.records().filter((r) => r.level === "warn");
      expect(warnings).toHaveLength(variants.length);
      expect(warnings.map((r) => r.msg)).toContainEqual(expect.stringContaining(`signed event ${valid.id} is malformed (created: `));
    } finally {
      logs.restore();
    }
    expect(standIn.requests.length).toBe(reads);
    expect(await db.stripeEvent.count({ where: { id: valid.id } })).toBe(0);
    expect(await db.stripeCustomer.count({ where: { customerId: "cus_new_malformed" } })).toBe(0);
    expect(await tierOf(user.id)).toBe("FREE");
  });
});

describe("webhook events", () => {
  it("upgrades on checkout.session.completed from the subscription Stripe reports, once per event id", async () => {
    const { user, customerId } = await account("free");
    standIn.subscriptions.set(customerId, [stripeSubscription({ id: "sub_up", customer: customerId, price: "price_pro", status: "active" })]);
    const session = { id: "cs_test_1", object: "checkout.session", mode: "subscription", customer: customerId, client_reference_id: user.id, subscription: "sub_up" };
    const first = deliver("checkout.session.completed", session);
    expect(await first.outcome).toEqual({ event_id: first.event.id, type: "checkout.session.completed", result: "processed", tier: "pro" });
    expect(await tierOf(user.id)).toBe("PRO");
    const reads = standIn.requestsTo("/v1/subscriptions");
    expect(reads.at(-1)).toMatchObject({ method: "GET", query: { customer: customerId, status: "all", limit: "100" }, authorization: "Bearer sk_test_stand_in" });
    expect(await trail(user.id)).toEqual([
      expect.objectContaining({ actorId: null, target: "Stripe checkout.session.completed: free -> pro", ip: origin.ip, userAgent: origin.userAgent }),
    ]);
    expect(await db.stripeCustomer.findUniqueOrThrow({ where: { userId: user.id } })).toMatchObject({
      subscriptionId: "sub_up",
      subscriptionStatus: "active",
      priceId: "price_pro",
      cancelAtPeriodEnd: false,
      pastDueSince: null,
    });

    // Stripe delivers at least once: the same event again is acknowledged and changes nothing.
    const readsBefore = standIn.requests.length;
    const again = await handleStripeWebhook(db, provider, first.event.payload, first.event.signature, origin);
    expect(again).toEqual({ event_id: first.event.id, type: "checkout.session.completed", result: "duplicate" });
    expect(standIn.requests.length).toBe(readsBefore);
    expect(await trail(user.id)).toHaveLength(1);
    expect(await db.stripeEvent.findUniqueOrThrow({ where: { id: first.event.id } })).toMatchObject({ type: "checkout.session.completed" });
  });

  it("downgrades a cancelled subscription to Free on customer.subscription.deleted", async () => {
    const { user, customerId } = await account("free");
    const active = stripeSubscription({ id: "sub_desk", customer: customerId, price: "price_desk", status: "active" });
    standIn.subscriptions.set(customerId, [active]);
    expect(await deliver("customer.subscription.created", active).outcome).toMatchObject({ result: "processed", tier: "desk" });

    const cancelled = stripeSubscription({ id: "sub_desk", customer: customerId, price: "price_desk", status: "canceled" });
    standIn.subscriptions.set(customerId, [cancelled]);
    expect(await deliver("customer.subscription.deleted", cancelled).outcome).toMatchObject({ result: "processed", tier: "free" });
    expect(await tierOf(user.id)).toBe("FREE");
    expect((await trail(user.id)).map((event) => event.target)).toEqual([
      "Stripe customer.subscription.created: free -> desk",
      "Stripe customer.subscription.deleted: desk -> free",
    ]);
    expect(await db.stripeCustomer.findUniqueOrThrow({ where: { userId: user.id } })).toMatchObject({ subscriptionId: "sub_desk", subscriptionStatus: "canceled" });
    // The owner's audit trail says it was the system, with the reason, not "by an operator".
    const labels = (await auditTrail(db, user.id)).entries.filter((entry) => entry.action === "tier.changed").map((entry) => entry.label);
    expect(labels).toHaveLength(2);
    expect(labels.some((label) => label.includes("operator"))).toBe(false);
  });

  it("starts the grace period when past_due is first seen, not at the creation of a late redelivered event", async () => {
    const { user, customerId } = await account("free");
    standIn.subscriptions.set(customerId, [stripeSubscription({ id: "sub_late", customer: customerId, price: "price_pro", status: "past_due" })]);
    // A customer.subscription.created from four days ago, redelivered after an outage: the state read now is past_due.
    const before = Date.now();
    const late = { id: "sub_late", object: "subscription", customer: customerId };
    expect(await deliver("customer.subscription.created", late, { created: new Date(before - 4 * DAY) }).outcome).toMatchObject({ tier: "pro" });
    const since = (await db.stripeCustomer.findUniqueOrThrow({ where: { userId: user.id } })).pastDueSince;
    expect(since?.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it("keeps the newest state when events arrive out of order: each one re-reads Stripe", async () => {
    const { user, customerId } = await account("free");
    const created = new Date(Date.now() - 120_000);
    const activeCopy = stripeSubscription({ id: "sub_late", customer: customerId, price: "price_pro", status: "active" });
    const cancelled = stripeSubscription({ id: "sub_late", customer: customerId, price: "price_pro", status: "canceled" });
    standIn.subscriptions.set(customerId, [cancelled]);
    // The deletion arrives first, then the creation that Stripe sent before it, carrying "active".
    expect(await deliver("customer.subscription.deleted", cancelled).outcome).toMatchObject({ result: "processed", tier: "free" });
    expect(await deliver("customer.subscription.created", activeCopy, { created }).outcome).toMatchObject({ result: "processed", tier: "free" });
    expect(await tierOf(user.id)).toBe("FREE");
    expect(await trail(user.id)).toEqual([]);
  });

  it("drops a state read before the one already stored (two deliveries processed at once)", async () => {
    const { user, customerId } = await account("free");
    const newer = [stripeSubscription({ id: "sub_race", customer: customerId, price: "price_desk", status: "active" })];
    const older = [stripeSubscription({ id: "sub_race", customer: customerId, price: "price_desk", status: "incomplete" })];
    const snapshots = (subscriptions: typeof newer) => subscriptions.map((s) => snapshotOf(s as unknown as Stripe.Subscription, provider.config));
    const trigger = (id: string) => ({ event: { id, type: "customer.subscription.updated", created: new Date() }, reason: "Stripe customer.subscription.updated", origin });
    const readEarlier = new Date(Date.now() - 1000);
    expect(await applyStripeState(db, provider, { userId: user.id, customerId }, snapshots(newer), new Date(), trigger("evt_race_2"))).toMatchObject({ kind: "applied", tier: "desk" });
    expect(await applyStripeState(db, provider, { userId: user.id, customerId }, snapshots(older), readEarlier, trigger("evt_race_1"))).toEqual({ kind: "stale" });
    expect(await tierOf(user.id)).toBe("DESK");
    expect(await db.stripeCustomer.findUniqueOrThrow({ where: { userId: user.id } })).toMatchObject({ subscriptionStatus: "active" });
    // The stale event is still recorded as processed: redelivering it changes nothing either.
    expect(await db.stripeEvent.count({ where: { id: { in: ["evt_race_1", "evt_race_2"] } } })).toBe(2);
  });

  it("keeps the paid tier through the grace period after invoice.payment_failed, then falls back to Free; invoice.paid restores it", async () => {
    const { user, customerId } = await account("free");
    standIn.subscriptions.set(customerId, [stripeSubscription({ id: "sub_card", customer: customerId, price: "price_pro", status: "active" })]);
    await deliver("customer.subscription.created", { id: "sub_card", object: "subscription", customer: customerId }).outcome;
    expect(await tierOf(user.id)).toBe("PRO");

    const failedAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 5000);
    standIn.subscriptions.set(customerId, [stripeSubscription({ id: "sub_card", customer: customerId, price: "price_pro", status: "past_due" })]);
    const invoice = { id: "in_failed", object: "invoice", customer: customerId, status: "open" };
    expect(await deliver("invoice.payment_failed", invoice, { created: failedAt }).outcome).toMatchObject({ result: "processed", tier: "pro" });
    expect(await db.stripeCustomer.findUniqueOrThrow({ where: { userId: user.id } })).toMatchObject({ subscriptionStatus: "past_due", pastDueSince: failedAt });

    // Another retry failing later does not restart the grace period.
    await deliver("invoice.payment_failed", invoice, { created: new Date() }).outcome;
    expect((await db.stripeCustomer.findUniqueOrThrow({ where: { userId: user.id } })).pastDueSince).toEqual(failedAt);

    expect(await expireGracePeriods(db, provider, new Date(failedAt.getTime() + 7 * DAY - 1000))).toBe(0);
    expect(await tierOf(user.id)).toBe("PRO");
    expect(await expireGracePeriods(db, provider, new Date(failedAt.getTime() + 7 * DAY))).toBe(1);
    expect(await tierOf(user.id)).toBe("FREE");

    standIn.subscriptions.set(customerId, [stripeSubscription({ id: "sub_card", customer: customerId, price: "price_pro", status: "active" })]);
    expect(await deliver("invoice.paid", { ...invoice, status: "paid" }).outcome).toMatchObject({ result: "processed", tier: "pro" });
    expect((await trail(user.id)).map((event) => event.target)).toEqual([
      "Stripe customer.subscription.created: free -> pro",
      "Stripe payment past due beyond the grace period: pro -> free",
      "Stripe invoice.paid: free -> pro",
    ]);
    expect((await db.stripeCustomer.findUniqueOrThrow({ where: { userId: user.id } })).pastDueSince).toBeNull();
  });

  it("answers an error while Stripe cannot be read, so Stripe delivers again, and stores nothing until then", async () => {
    const { user, customerId } = await account("free");
    standIn.subscriptions.set(customerId, [stripeSubscription({ id: "sub_retry", customer: customerId, price: "price_desk", status: "active" })]);
    const event = signedEvent(WEBHOOK_SECRET, "customer.subscription.created", { id: "sub_retry", object: "subscription", customer: customerId });
    standIn.failing = true;
    await expect(handleStripeWebhook(db, provider, event.payload, event.signature, origin)).rejects.not.toHaveProperty("code", "VALIDATION_ERROR");
    expect(await db.stripeEvent.count({ where: { id: event.id } })).toBe(0);
    expect(await tierOf(user.id)).toBe("FREE");
    standIn.failing = false;
    expect(await handleStripeWebhook(db, provider, event.payload, event.signature, origin)).toMatchObject({ result: "processed", tier: "desk" });
  });

  it("links a customer it has not stored through client_reference_id, and ignores one that names no account", async () => {
    const { user } = await account("free", { linked: false });
    const customerId = "cus_created_by_checkout";
    standIn.subscriptions.set(customerId, [stripeSubscription({ id: "sub_linked", customer: customerId, price: "price_pro", status: "active" })]);
    const session = { id: "cs_test_link", object: "checkout.session", customer: customerId, client_reference_id: user.id, metadata: {} };
    expect(await deliver("checkout.session.completed", session).outcome).toMatchObject({ result: "processed", tier: "pro" });
    expect(await db.stripeCustomer.findUniqueOrThrow({ where: { userId: user.id } })).toMatchObject({ customerId });

    const reads = standIn.requests.length;
    const stranger = deliver("customer.subscription.updated", { id: "sub_x", object: "subscription", customer: "cus_unknown", metadata: {} });
    expect(await stranger.outcome).toMatchObject({ result: "ignored" });
    expect(standIn.requests.length).toBe(reads);
    expect(await db.stripeEvent.count({ where: { id: stranger.event.id } })).toBe(1);
  });

  it("cancels, prorated, a second subscription Stripe would bill (two checkouts both paid), keeping the one the account follows, and audits it", async () => {
    const { user, customerId } = await account("free");
    const pro = stripeSubscription({ id: "sub_twice_pro", customer: customerId, price: "price_pro", status: "active", created: new Date(Date.now() - 120_000) });
    const desk = stripeSubscription({ id: "sub_twice_desk", customer: customerId, price: "price_desk", status: "active" });
    const ended = stripeSubscription({ id: "sub_twice_old", customer: customerId, price: "price_pro", status: "canceled" });
    standIn.subscriptions.set(customerId, [pro, desk, ended]);
    const sent = standIn.requests.length;
    expect(await deliver("customer.subscription.created", desk).outcome).toMatchObject({ result: "processed", tier: "desk" });

    const cancels = standIn.requests.slice(sent).filter((request) => request.method === "DELETE");
    expect(cancels).toEqual([expect.objectContaining({ path: "/v1/subscriptions/sub_twice_pro", query: { prorate: "true", invoice_now: "true" } })]);
    expect(pro).toMatchObject({ status: "canceled" });
    expect(desk).toMatchObject({ status: "active" });
    expect(await tierOf(user.id)).toBe("DESK");
    expect(await db.stripeCustomer.findUniqueOrThrow({ where: { userId: user.id } })).toMatchObject({ subscriptionId: "sub_twice_desk" });
    const audit = await db.auditEvent.findMany({ where: { subjectId: user.id, action: "billing.subscription_cancelled" } });
    expect(audit).toEqual([
      expect.objectContaining({ actorId: null, target: "sub_twice_pro (pro, active); the account keeps sub_twice_desk", ip: origin.ip }),
    ]);
    expect((await auditTrail(db, user.id)).entries.map((entry) => entry.label)).toContain("Duplicate Stripe subscription cancelled (unused time credited)");

    // The deletion's own webhook finds one subscription left: nothing more is cancelled.
    const again = standIn.requests.length;
    expect(await deliver("customer.subscription.deleted", pro).outcome).toMatchObject({ result: "processed", tier: "desk" });
    expect(standIn.requests.slice(again).filter((request) => request.method === "DELETE")).toEqual([]);
    expect(await db.auditEvent.count({ where: { subjectId: user.id, action: "billing.subscription_cancelled" } })).toBe(1);
  });

  it("acknowledges event types it does not handle without reading Stripe", async () => {
    const reads = standIn.requests.length;
    const { event, outcome } = deliver("customer.created", { id: "cus_new", object: "customer" });
    expect(await outcome).toEqual({ event_id: event.id, type: "customer.created", result: "ignored" });
    expect(standIn.requests.length).toBe(reads);
  });
});

describe("start-up reconciliation", () => {
  const own = testDatabaseForFile();

  it("applies every customer's subscriptions, links customers by metadata, and moves unpaid paid accounts to Free", async () => {
    const odb = own.db;
    const lapsed = await account("pro", { on: odb });
    const paying = await account("free", { on: odb });
    const unlinked = await account("free", { linked: false, on: odb });
    const demoDesk = await account("desk", { linked: false, on: odb });
    const free = await account("free", { linked: false, on: odb });
    standIn.subscriptions.clear();
    standIn.subscriptions.set(lapsed.customerId, [stripeSubscription({ id: "sub_lapsed", customer: lapsed.customerId, price: "price_pro", status: "canceled" })]);
    // Two billed at once (webhooks missed while no server ran): the one not followed is cancelled.
    standIn.subscriptions.set(paying.customerId, [
      stripeSubscription({ id: "sub_paying", customer: paying.customerId, price: "price_desk", status: "trialing" }),
      stripeSubscription({ id: "sub_paying_twice", customer: paying.customerId, price: "price_pro", status: "active" }),
    ]);
    standIn.subscriptions.set("cus_elsewhere", [
      stripeSubscription({ id: "sub_meta", customer: "cus_elsewhere", price: "price_pro", status: "active", accountId: unlinked.user.id }),
    ]);
    const reads = standIn.requestsTo("/v1/subscriptions").length;

    expect(await reconcileStripeCustomers(odb, provider)).toEqual({ customers: 3, tierChanges: 4 });
    const listing = standIn.requestsTo("/v1/subscriptions").slice(reads);
    expect(listing).toEqual([expect.objectContaining({ method: "GET", query: { status: "all", limit: "100" } })]);
    expect(standIn.requestsTo("/v1/subscriptions/sub_paying_twice")).toEqual([
      expect.objectContaining({ method: "DELETE", query: { prorate: "true", invoice_now: "true" } }),
    ]);
    expect(await odb.auditEvent.findMany({ where: { action: "billing.subscription_cancelled" } })).toEqual([
      expect.objectContaining({ subjectId: paying.user.id, actorId: null, target: "sub_paying_twice (pro, active); the account keeps sub_paying" }),
    ]);

    const tiers = await odb.user.findMany({ where: { id: { in: [lapsed, paying, unlinked, demoDesk, free].map((a) => a.user.id) } } });
    const tierById = Object.fromEntries(tiers.map((u) => [u.id, u.tier]));
    expect([lapsed, paying, unlinked, demoDesk, free].map((a) => tierById[a.user.id])).toEqual(["FREE", "DESK", "PRO", "FREE", "FREE"]);
    expect(await odb.stripeCustomer.findUniqueOrThrow({ where: { userId: unlinked.user.id } })).toMatchObject({ customerId: "cus_elsewhere" });
    const audit = await odb.auditEvent.findMany({ where: { action: "tier.changed" }, orderBy: { at: "asc" } });
    expect(audit.map((event) => [event.subjectId, event.target])).toEqual(
      expect.arrayContaining([
        [lapsed.user.id, "Stripe start-up reconciliation: pro -> free"],
        [paying.user.id, "Stripe start-up reconciliation: free -> desk"],
        [unlinked.user.id, "Stripe start-up reconciliation: free -> pro"],
        [demoDesk.user.id, "No Stripe subscription at start-up: desk -> free"],
      ]),
    );
    expect(audit).toHaveLength(4);

    // Run again: everything already agrees with Stripe.
    expect(await reconcileStripeCustomers(odb, provider)).toEqual({ customers: 3, tierChanges: 0 });
  });

  it("reads every page of subscriptions (150 customers: two pages of at most 100)", async () => {
    const odb = own.db;
    standIn.subscriptions.clear();
    const users = Array.from({ length: 150 }, (_, i) => ({ email: `paged-${i}@example.com`, passwordHash: "not-a-real-hash", emailVerifiedAt: new Date() }));
    const created = await odb.user.createManyAndReturn({ data: users, select: { id: true, email: true } });
    created.sort((a, b) => Number(a.email.split(/[-@]/)[1]) - Number(b.email.split(/[-@]/)[1]));
    await odb.stripeCustomer.createMany({ data: created.map((user, i) => ({ userId: user.id, customerId: `cus_page_${i}` })) });
    created.forEach((_, i) => {
      const customerId = `cus_page_${i}`;
      standIn.subscriptions.set(customerId, [stripeSubscription({ id: `sub_page_${i}`, customer: customerId, price: i % 2 ? "price_desk" : "price_pro", status: "active" })]);
    });
    const many = created.map((user) => user.id);
    const reads = standIn.requestsTo("/v1/subscriptions").length;
    await reconcileStripeCustomers(odb, provider);
    expect(standIn.requestsTo("/v1/subscriptions").slice(reads).map((request) => request.query)).toEqual([
      { status: "all", limit: "100" },
      { status: "all", limit: "100", starting_after: "sub_page_99" },
    ]);
    const tiers = await odb.user.findMany({ where: { id: { in: many } }, select: { tier: true } });
    expect(tiers.filter((user) => user.tier !== "FREE")).toHaveLength(150);
  });
});
