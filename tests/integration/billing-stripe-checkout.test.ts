// Upgrading through Stripe Checkout, the Customer Portal and the plan page's billing overview,
// against the local Stripe stand-in: each test asserts the exact requests the `stripe` client sent.
import { beforeAll, describe, expect, it } from "vitest";
import { changeTier } from "@/lib/billing/change-tier";
import { billingOverview } from "@/lib/billing/stripe/billing-overview";
import { openBillingPortal, startCheckout } from "@/lib/billing/stripe/stripe-checkout";
import type { StripeBillingProvider } from "@/lib/billing/stripe/stripe-provider";
import type { Db } from "@/lib/db";
import { tierToDb, type Tier } from "@/lib/keys/permissions";
import { stripeInvoice, type StripeStandIn } from "@/tests/support/stripe-stand-in";
import { stripeTestBedForFile } from "@/tests/support/stripe-test-bed";
import { captureLogs } from "@/tests/support/capture-logs";

const ORIGIN = "https://funding.example.com";
const origin = { ip: "203.0.113.7", userAgent: "vitest" };

const bed = stripeTestBedForFile({ secretKey: "sk_test_checkout", webhookSecret: "whsec_checkout", pricePro: "price_pro_monthly", priceDesk: "price_desk_monthly" });
let standIn: StripeStandIn, db: Db, provider: StripeBillingProvider;

beforeAll(() => {
  ({ standIn, db, provider } = bed);
});

let accounts = 0;
async function account(tier: Tier = "free") {
  const n = ++accounts;
  const user = await db.user.create({ data: { email: `payer-${n}@example.com`, passwordHash: "not-a-real-hash", tier: tierToDb(tier), emailVerifiedAt: new Date() } });
  return { id: user.id, email: user.email };
}

describe("Checkout", () => {
  it("reads the tier's price, creates the customer (account id in metadata), asks Stripe for its subscriptions, then a subscription-mode session for that price", async () => {
    const user = await account();
    const sent = bed.sentFrom();
    const before = Math.floor(Date.now() / 1000);
    const { url } = await startCheckout(db, provider, user, "desk", ORIGIN);

    const [price, customer, subscriptions, session, ...rest] = sent();
    expect(rest).toEqual([]);
    expect(price).toMatchObject({ method: "GET", path: "/v1/prices/price_desk_monthly", query: {} });
    expect(customer).toEqual({
      method: "POST",
      path: "/v1/customers",
      query: {},
      form: { email: user.email, "metadata[account_id]": user.id },
      idempotencyKey: `fods-customer-${user.id}`,
      authorization: "Bearer sk_test_checkout",
    });
    const { customerId, checkoutSessionId, checkoutExpiresAt } = await db.stripeCustomer.findUniqueOrThrow({ where: { userId: user.id } });
    expect(subscriptions).toMatchObject({ method: "GET", path: "/v1/subscriptions", query: { customer: customerId, status: "all", limit: "100" } });
    expect(session).toMatchObject({
      method: "POST",
      path: "/v1/checkout/sessions",
      query: {},
      form: {
        mode: "subscription",
        customer: customerId,
        client_reference_id: user.id,
        "line_items[0][price]": "price_desk_monthly",
        "line_items[0][quantity]": "1",
        "metadata[account_id]": user.id,
        "metadata[tier]": "desk",
        "subscription_data[metadata][account_id]": user.id,
        success_url: `${ORIGIN}/account/plan?checkout=success`,
        cancel_url: `${ORIGIN}/account/plan?checkout=cancelled`,
      },
    });
    // The session is payable for an hour, and remembered so the next checkout can expire it.
    expect(Number(session!.form.expires_at)).toBeGreaterThanOrEqual(before + 3600);
    expect(Number(session!.form.expires_at)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3600);
    expect(checkoutSessionId).toBe(url.split("/").pop());
    expect(checkoutExpiresAt?.getTime()).toBe(Number(session!.form.expires_at) * 1000);
    expect(Object.keys(session!.form).sort()).toEqual(
      [
        "cancel_url",
        "expires_at",
        "client_reference_id",
        "customer",
        "line_items[0][price]",
        "line_items[0][quantity]",
        "metadata[account_id]",
        "metadata[tier]",
        "mode",
        "subscription_data[metadata][account_id]",
        "success_url",
      ].sort(),
    );
    expect(url).toMatch(new RegExp(`^${standIn.url}/checkout/cs_test_standin_\\d+$`));
    // The plan changes only when Stripe says it is paid.
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).tier).toBe("FREE");
  });

  it("reuses the account's customer on a second attempt, and expires the session opened before so only one can be paid", async () => {
    const user = await account();
    const first = await startCheckout(db, provider, user, "pro", ORIGIN);
    const firstId = first.url.split("/").pop()!;
    const sent = bed.sentFrom();
    const second = await startCheckout(db, provider, user, "pro", ORIGIN);
    expect(sent().map((request) => `${request.method} ${request.path}`)).toEqual([
      "GET /v1/prices/price_pro_monthly",
      `POST /v1/checkout/sessions/${firstId}/expire`,
      "GET /v1/subscriptions",
      "POST /v1/checkout/sessions",
    ]);
    expect(sent()[3]!.form["line_items[0][price]"]).toBe("price_pro_monthly");
    expect(standIn.checkoutSessions.get(firstId)!.status).toBe("expired");
    expect(standIn.checkoutSessions.get(second.url.split("/").pop()!)!.status).toBe("open");
  });

  it("refuses a price that charges other than the plan's list price with 503, before creating anything at Stripe, and tells the operator", async () => {
    const user = await account();
    const listed = standIn.prices.get("price_pro_monthly")!;
    standIn.prices.set("price_pro_monthly", { ...listed, recurring: { interval: "year", interval_count: 1 } });
    try {
      const sent = bed.sentFrom();
      const logs = captureLogs();
      try {
        await expect(startCheckout(db, provider, user, "pro", ORIGIN)).rejects.toMatchObject({ code: "BILLING_UNAVAILABLE", status: 503 });
      } finally {
        logs.restore();
      }
      expect(sent().map((request) => `${request.method} ${request.path}`)).toEqual(["GET /v1/prices/price_pro_monthly"]);
      expect(logs.matching(`Stripe price price_pro_monthly charges USD ${listed.unit_amount} cents every 1 year`)).toMatchObject([{ level: "error" }]);
      expect(await db.stripeCustomer.findUnique({ where: { userId: user.id } })).toBeNull();
    } finally {
      standIn.prices.set("price_pro_monthly", listed);
    }
  });

  it("refuses an account that already pays with 409 (changes go through the portal) without asking Stripe", async () => {
    const user = await account("pro");
    const sent = bed.sentFrom();
    await expect(startCheckout(db, provider, user, "desk", ORIGIN)).rejects.toMatchObject({
      code: "CONFLICT",
      status: 409,
      message: "You already have a paid plan: change or cancel it under Manage billing",
    });
    expect(sent()).toEqual([]);
  });

  it("refuses a Free account whose subscription Stripe may still bill (past_due beyond the grace period): no second subscription", async () => {
    const user = await account();
    await startCheckout(db, provider, user, "pro", ORIGIN);
    await db.stripeCustomer.update({ where: { userId: user.id }, data: { subscriptionId: "sub_retrying", subscriptionStatus: "past_due" } });
    const sent = bed.sentFrom();
    await expect(startCheckout(db, provider, user, "pro", ORIGIN)).rejects.toMatchObject({ code: "CONFLICT", status: 409 });
    expect(sent()).toEqual([]);
    // Once Stripe has ended it, a new subscription is the way back.
    await db.stripeCustomer.update({ where: { userId: user.id }, data: { subscriptionStatus: "canceled" } });
    await startCheckout(db, provider, user, "pro", ORIGIN);
    expect(sent().map((request) => request.path).at(-1)).toBe("/v1/checkout/sessions");
  });

  it("leaves one payable session when two checkouts run at once (the account row is locked)", async () => {
    const user = await account();
    // The customer and a first session exist already: nothing else (a unique index) orders the two.
    await startCheckout(db, provider, user, "pro", ORIGIN);
    const [a, b] = await Promise.all([startCheckout(db, provider, user, "pro", ORIGIN), startCheckout(db, provider, user, "desk", ORIGIN)]);
    const { customerId, checkoutSessionId } = await db.stripeCustomer.findUniqueOrThrow({ where: { userId: user.id } });
    const sessions = [...standIn.checkoutSessions.values()].filter((session) => session.customer === customerId);
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((session) => session.status === "open").map((session) => session.id)).toEqual([checkoutSessionId]);
    expect([a.url, b.url]).toContain(`${standIn.url}/checkout/${checkoutSessionId}`);
    expect(standIn.requestsTo("/v1/customers").filter((request) => request.form["metadata[account_id]"] === user.id)).toHaveLength(1);
  });

  it("refuses with 409 while Stripe has a subscription whose webhook has not arrived yet (a session paid in another tab)", async () => {
    const user = await account();
    const { url } = await startCheckout(db, provider, user, "pro", ORIGIN);
    const paid = standIn.completeCheckout(url.split("/").pop()!) as { id: string };
    const sent = bed.sentFrom();
    await expect(startCheckout(db, provider, user, "desk", ORIGIN)).rejects.toMatchObject({
      code: "CONFLICT",
      status: 409,
      message: `Your account already has a Stripe subscription (${paid.id}, active): change or cancel it under Manage billing`,
    });
    expect(sent().map((request) => request.path)).not.toContain("/v1/checkout/sessions");
  });

  it("refuses a plan change on request: the tier follows the Stripe subscription", async () => {
    const user = await account("free");
    await expect(changeTier(db, { userId: user.id }, { userId: user.id, tier: "desk" }, origin, provider)).rejects.toMatchObject({ code: "FORBIDDEN", status: 403 });
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).tier).toBe("FREE");
    expect(await db.auditEvent.count({ where: { subjectId: user.id } })).toBe(0);
  });
});

describe("Customer Portal", () => {
  it("opens a portal session for the account's customer, returning to the plan page", async () => {
    const user = await account();
    await startCheckout(db, provider, user, "pro", ORIGIN);
    const { customerId } = await db.stripeCustomer.findUniqueOrThrow({ where: { userId: user.id } });
    const sent = bed.sentFrom();
    const { url } = await openBillingPortal(db, provider, user, ORIGIN);
    expect(sent()).toHaveLength(1);
    expect(sent()[0]).toMatchObject({
      method: "POST",
      path: "/v1/billing_portal/sessions",
      query: {},
      form: { customer: customerId, return_url: `${ORIGIN}/account/plan` },
      authorization: "Bearer sk_test_checkout",
    });
    expect(Object.keys(sent()[0]!.form).sort()).toEqual(["customer", "return_url"]);
    expect(url).toMatch(new RegExp(`^${standIn.url}/portal/bps_standin_\\d+$`));
  });

  it("says the portal is not enabled in the Dashboard (503, logged) when Stripe has no portal configuration", async () => {
    const user = await account();
    await startCheckout(db, provider, user, "pro", ORIGIN);
    const logs = captureLogs();
    standIn.portalConfigured = false;
    try {
      await expect(openBillingPortal(db, provider, user, ORIGIN)).rejects.toMatchObject({
        code: "BILLING_UNAVAILABLE",
        status: 503,
        message: expect.stringContaining("the Stripe Customer Portal has not been enabled in the Stripe Dashboard"),
      });
      expect(logs.records().map((r) => r.msg)).toContainEqual(expect.stringContaining(`Customer Portal session for account ${user.id}: StripeInvalidRequestError: No configuration provided`));
      standIn.failing = true;
      await expect(openBillingPortal(db, provider, user, ORIGIN)).rejects.toMatchObject({ code: "BILLING_UNAVAILABLE", message: expect.stringContaining("could not be reached") });
    } finally {
      standIn.portalConfigured = true;
      logs.restore();
    }
  });

  it("is not found for an account that never went to Checkout", async () => {
    const user = await account();
    const sent = bed.sentFrom();
    await expect(openBillingPortal(db, provider, user, ORIGIN)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(sent()).toEqual([]);
  });
});

describe("billing overview", () => {
  it("shows the stored subscription and the latest invoices read from Stripe", async () => {
    const user = await account();
    await startCheckout(db, provider, user, "pro", ORIGIN);
    const { customerId } = await db.stripeCustomer.findUniqueOrThrow({ where: { userId: user.id } });
    const periodEnd = new Date("2026-12-24T10:00:00Z");
    await db.stripeCustomer.update({
      where: { userId: user.id },
      data: { subscriptionId: "sub_o", subscriptionStatus: "active", priceId: "price_pro_monthly", currentPeriodEnd: periodEnd, cancelAtPeriodEnd: true },
    });
    standIn.invoices.set(customerId, [
      stripeInvoice({ id: "in_2", customer: customerId, number: "FODS-0002", total: 4900, status: "paid", created: new Date("2026-11-24T10:00:00Z") }),
      stripeInvoice({ id: "in_1", customer: customerId, number: "FODS-0001", total: 1500, currency: "eur", status: "void", created: new Date("2026-10-24T10:00:00Z") }),
    ]);
    const sent = bed.sentFrom();
    const overview = await billingOverview(db, provider, user.id);
    expect(sent()).toEqual([expect.objectContaining({ method: "GET", path: "/v1/invoices", query: { customer: customerId, limit: "5" } })]);
    expect(overview).toEqual({
      customer: true,
      subscription: { status: "active", tier: "pro", currentPeriodEnd: periodEnd, cancelAt: null, cancelAtPeriodEnd: true, graceEndsAt: null },
      invoices: [
        { id: "in_2", number: "FODS-0002", amount: "$49.00", status: "paid", date: new Date("2026-11-24T10:00:00Z"), url: "https://invoices.example.com/i/in_2" },
        { id: "in_1", number: "FODS-0001", amount: "€15.00", status: "void", date: new Date("2026-10-24T10:00:00Z"), url: "https://invoices.example.com/i/in_1" },
      ],
    });
  });

  it("says so, rather than failing the page, when Stripe cannot be reached; asks nothing without a customer", async () => {
    const user = await account();
    expect(await billingOverview(db, provider, user.id)).toEqual({ customer: false, subscription: null, invoices: [] });
    await startCheckout(db, provider, user, "pro", ORIGIN);
    standIn.failing = true;
    expect(await billingOverview(db, provider, user.id)).toMatchObject({ customer: true, subscription: null, invoices: null });
  });
});
