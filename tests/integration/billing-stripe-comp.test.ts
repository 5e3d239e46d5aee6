// Operators granting a plan without charge under Stripe billing (lib/billing/stripe/comp-plan.ts),
// against the local Stripe stand-in: a subscription carrying a 100 % coupon, which webhooks and
// start-up reconciliation then keep like any paid one.
import { beforeAll, describe, expect, it } from "vitest";
import { compPlan, compSchema, COMP_COUPON_ID } from "@/lib/billing/stripe/comp-plan";
import { reconcileStripeCustomers } from "@/lib/billing/stripe/reconcile";
import { startCheckout } from "@/lib/billing/stripe/stripe-checkout";
import type { StripeBillingProvider } from "@/lib/billing/stripe/stripe-provider";
import type { Db } from "@/lib/db";
import { auditTrail } from "@/lib/security/audit-trail";
import type { StripeStandIn } from "@/tests/support/stripe-stand-in";
import { stripeTestBedForFile } from "@/tests/support/stripe-test-bed";

const origin = { ip: "203.0.113.20", userAgent: "vitest" };

const bed = stripeTestBedForFile({ secretKey: "sk_test_comp", webhookSecret: "whsec_comp", pricePro: "price_pro_comp", priceDesk: "price_desk_comp" });
let standIn: StripeStandIn, db: Db, provider: StripeBillingProvider;
let operatorId: string;

beforeAll(async () => {
  ({ standIn, db, provider } = bed);
  operatorId = (await db.user.create({ data: { email: "operator@example.com", passwordHash: "x", isOperator: true, emailVerifiedAt: new Date() } })).id;
});

let accounts = 0;
async function account() {
  const user = await db.user.create({ data: { email: `comped-${++accounts}@example.com`, passwordHash: "x", emailVerifiedAt: new Date() } });
  return { id: user.id, email: user.email };
}

describe("comped plans", () => {
  it("creates a subscription with the 100 % coupon, applies its tier at once, and audits the grant as the operator", async () => {
    const user = await account();
    const sent = bed.sentFrom();
    const result = await compPlan(db, provider, { userId: operatorId }, { userId: user.id, tier: "desk", reason: "design partner" }, origin);

    const { customerId } = await db.stripeCustomer.findUniqueOrThrow({ where: { userId: user.id } });
    expect(sent().map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /v1/customers",
      "GET /v1/subscriptions",
      "POST /v1/coupons",
      "POST /v1/subscriptions",
      "GET /v1/subscriptions",
    ]);
    expect(sent()[2]!.form).toEqual({ id: COMP_COUPON_ID, percent_off: "100", duration: "forever", name: "Complimentary plan" });
    expect(sent()[3]!.form).toEqual({
      customer: customerId,
      "items[0][price]": "price_desk_comp",
      "items[0][quantity]": "1",
      "discounts[0][coupon]": COMP_COUPON_ID,
      "metadata[account_id]": user.id,
      "metadata[comp]": "true",
    });
    expect(result).toEqual({ userId: user.id, tier: "desk", subscriptionId: expect.stringMatching(/^sub_standin_/) });
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).tier).toBe("DESK");
    expect(await db.stripeCustomer.findUniqueOrThrow({ where: { userId: user.id } })).toMatchObject({ subscriptionId: result.subscriptionId, subscriptionStatus: "active" });

    const audit = await db.auditEvent.findMany({ where: { subjectId: user.id }, orderBy: { at: "asc" } });
    expect(audit.map((event) => [event.action, event.actorId, event.target])).toEqual([
      ["billing.comped", operatorId, `desk (${result.subscriptionId}): design partner`],
      ["tier.changed", null, "Stripe plan granted without charge: free -> desk"],
    ]);
    expect((await auditTrail(db, user.id)).entries.map((entry) => entry.label)).toContain("Plan granted without charge by an operator");
  });

  it("creates the coupon once, expires an open checkout, and refuses (409) an account that already has a subscription", async () => {
    const user = await account();
    const { url } = await startCheckout(db, provider, user, "pro", "https://funding.example.com");
    const sent = bed.sentFrom();
    await compPlan(db, provider, { userId: operatorId }, { userId: user.id, tier: "pro", reason: "support credit" }, origin);
    expect(standIn.checkoutSessions.get(url.split("/").pop()!)!.status).toBe("expired");
    // The coupon exists already: Stripe refuses a second with that id, which is fine.
    expect(sent().filter((request) => request.path === "/v1/coupons")).toHaveLength(1);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).tier).toBe("PRO");

    await expect(compPlan(db, provider, { userId: operatorId }, { userId: user.id, tier: "desk", reason: "again" }, origin)).rejects.toMatchObject({ code: "CONFLICT", status: 409 });
    await db.user.update({ where: { id: user.id }, data: { tier: "FREE" } });
    await expect(startCheckout(db, provider, user, "desk", "https://funding.example.com")).rejects.toMatchObject({ code: "CONFLICT", status: 409 });
  });

  it("is kept by start-up reconciliation like a paid subscription", async () => {
    const comped = await db.user.findMany({ where: { tier: { not: "FREE" } }, select: { id: true, tier: true } });
    expect(comped.length).toBeGreaterThan(0);
    await reconcileStripeCustomers(db, provider);
    const after = await db.user.findMany({ where: { id: { in: comped.map((user) => user.id) } }, select: { id: true, tier: true } });
    expect(after.sort((a, b) => a.id.localeCompare(b.id))).toEqual(comped.sort((a, b) => a.id.localeCompare(b.id)));
  });

  it("needs a paid tier and a reason; refuses an unknown account", async () => {
    expect(compSchema.safeParse({ tier: "free", reason: "x" }).success).toBe(false);
    expect(compSchema.safeParse({ tier: "pro", reason: "  " }).success).toBe(false);
    await expect(compPlan(db, provider, { userId: operatorId }, { userId: "no-such-user", tier: "pro", reason: "x" }, origin)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
