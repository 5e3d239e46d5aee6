import { describe, expect, it } from "vitest";
import { billingProvider } from "./billing-provider";
import { demoBillingProvider, demoBillingRefusal } from "./demo-provider";
import { isStripeProvider } from "./stripe/stripe-provider";

const STRIPE = {
  STRIPE_SECRET_KEY: "sk_test_123",
  STRIPE_WEBHOOK_SECRET: "whsec_abc",
  STRIPE_PRICE_PRO: "price_pro",
  STRIPE_PRICE_DESK: "price_desk",
};

describe("billingProvider", () => {
  it("is Stripe when its four variables are set, demo otherwise", () => {
    const stripe = billingProvider(STRIPE);
    expect(stripe.id).toBe("stripe");
    expect(isStripeProvider(stripe)).toBe(true);
    expect(billingProvider({})).toBe(demoBillingProvider);
  });

  it("lets BILLING_PROVIDER choose, and refuses stripe without its configuration", () => {
    expect(billingProvider({ ...STRIPE, BILLING_PROVIDER: "demo" })).toBe(demoBillingProvider);
    expect(billingProvider({ ...STRIPE, BILLING_PROVIDER: "stripe" }).id).toBe("stripe");
    expect(() => billingProvider({ BILLING_PROVIDER: "stripe" })).toThrow(/BILLING_PROVIDER "stripe" needs STRIPE_SECRET_KEY/);
    expect(() => billingProvider({ BILLING_PROVIDER: "paypal" })).toThrow(/"paypal" is not a billing provider \(supported: demo, stripe\)/);
  });

  it("refuses a half-configured Stripe instead of falling back to demo", () => {
    expect(() => billingProvider({ STRIPE_SECRET_KEY: "sk_test_123" })).toThrow(/Stripe billing needs/);
  });

  it("refuses plan changes on request under Stripe: the tier follows the subscription", async () => {
    const stripe = billingProvider(STRIPE);
    await expect(stripe.changeTier({ id: "u", email: "u@example.com", tier: "free" }, "desk", { ip: null, userAgent: null })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });
});

describe("demo billing in production", () => {
  it("is allowed outside production and on the embedded set-up on plain http", () => {
    expect(demoBillingRefusal({})).toBeNull();
    expect(demoBillingRefusal({ NODE_ENV: "test", DATABASE_URL: "postgres://x" })).toBeNull();
    expect(demoBillingRefusal({ NODE_ENV: "production" })).toBeNull();
    expect(demoBillingRefusal({ NODE_ENV: "production", PUBLIC_URL: "http://localhost:3000" })).toBeNull();
    expect(billingProvider({ NODE_ENV: "production" })).toBe(demoBillingProvider);
  });

  it("is refused in a production deployment (PostgreSQL, or a public https address) unless BILLING_ALLOW_DEMO=1", () => {
    expect(demoBillingRefusal({ NODE_ENV: "production", DATABASE_URL: "postgres://db/x" })).toMatch(/refused in production .*DATABASE_URL is set/);
    expect(demoBillingRefusal({ NODE_ENV: "production", PUBLIC_URL: "https://funding.example.com" })).toMatch(/PUBLIC_URL is https/);
    expect(() => billingProvider({ NODE_ENV: "production", DATABASE_URL: "postgres://db/x" })).toThrow(/BILLING_ALLOW_DEMO=1/);
    expect(billingProvider({ NODE_ENV: "production", DATABASE_URL: "postgres://db/x", BILLING_ALLOW_DEMO: "1" })).toBe(demoBillingProvider);
    expect(billingProvider({ NODE_ENV: "production", DATABASE_URL: "postgres://db/x", ...STRIPE }).id).toBe("stripe");
  });
});
