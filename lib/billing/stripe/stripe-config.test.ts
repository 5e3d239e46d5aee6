import { describe, expect, it } from "vitest";
import { DEFAULT_GRACE_DAYS, readStripeConfig, tierOfPrice } from "./stripe-config";

const FULL = {
  STRIPE_SECRET_KEY: "sk_test_123",
  STRIPE_WEBHOOK_SECRET: "whsec_abc",
  STRIPE_PRICE_PRO: "price_pro",
  STRIPE_PRICE_DESK: "price_desk",
};
const DAY = 24 * 60 * 60 * 1000;

describe("readStripeConfig", () => {
  it("is null when no Stripe variable is set (blank counts as unset)", () => {
    expect(readStripeConfig({})).toBeNull();
    expect(readStripeConfig({ STRIPE_SECRET_KEY: " ", STRIPE_PRICE_PRO: "" })).toBeNull();
  });

  it("reads all four, with a 7-day grace period and Stripe's own API by default", () => {
    expect(readStripeConfig(FULL)).toEqual({
      secretKey: "sk_test_123",
      webhookSecret: "whsec_abc",
      prices: { pro: "price_pro", desk: "price_desk" },
      graceMs: DEFAULT_GRACE_DAYS * DAY,
      api: null,
    });
    expect(DEFAULT_GRACE_DAYS).toBe(7);
  });

  it("refuses a partial set, naming what is missing", () => {
    expect(() => readStripeConfig({ STRIPE_SECRET_KEY: "sk_test_123", STRIPE_PRICE_PRO: "price_pro" })).toThrow(
      /Stripe billing needs .*; missing STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_DESK$/,
    );
  });

  it("refuses a publishable key, a secret that is not a signing secret and one price for both tiers", () => {
    expect(() => readStripeConfig({ ...FULL, STRIPE_SECRET_KEY: "pk_test_123" })).toThrow(/STRIPE_SECRET_KEY must be a secret or restricted key/);
    expect(readStripeConfig({ ...FULL, STRIPE_SECRET_KEY: "rk_live_1" })?.secretKey).toBe("rk_live_1");
    expect(() => readStripeConfig({ ...FULL, STRIPE_WEBHOOK_SECRET: "abc" })).toThrow(/STRIPE_WEBHOOK_SECRET must be a webhook signing secret/);
    expect(() => readStripeConfig({ ...FULL, STRIPE_PRICE_DESK: "price_pro" })).toThrow(/must be different prices/);
  });

  it("reads STRIPE_GRACE_DAYS (0 allowed, fractions allowed) and refuses anything else", () => {
    expect(readStripeConfig({ ...FULL, STRIPE_GRACE_DAYS: "0" })?.graceMs).toBe(0);
    expect(readStripeConfig({ ...FULL, STRIPE_GRACE_DAYS: "1.5" })?.graceMs).toBe(1.5 * DAY);
    for (const bad of ["-1", "seven", "Infinity"]) {
      expect(() => readStripeConfig({ ...FULL, STRIPE_GRACE_DAYS: bad })).toThrow(/STRIPE_GRACE_DAYS must be a number of days/);
    }
  });

  it("points the client at STRIPE_API_BASE's host, port and protocol", () => {
    expect(readStripeConfig({ ...FULL, STRIPE_API_BASE: "http://127.0.0.1:12111" })?.api).toEqual({ host: "127.0.0.1", port: 12111, protocol: "http" });
    expect(readStripeConfig({ ...FULL, STRIPE_API_BASE: "https://stripe-mock.internal" })?.api).toEqual({ host: "stripe-mock.internal", port: 443, protocol: "https" });
    expect(() => readStripeConfig({ ...FULL, STRIPE_API_BASE: "ftp://x" })).toThrow(/STRIPE_API_BASE must be an http\(s\) URL/);
    expect(() => readStripeConfig({ ...FULL, STRIPE_API_BASE: "not a url" })).toThrow(/STRIPE_API_BASE/);
  });
});

describe("tierOfPrice", () => {
  it("knows the two prices it sells and nothing else", () => {
    const config = { prices: { pro: "price_pro", desk: "price_desk" } };
    expect(tierOfPrice(config, "price_pro")).toBe("pro");
    expect(tierOfPrice(config, "price_desk")).toBe("desk");
    expect(tierOfPrice(config, "price_other")).toBeNull();
    expect(tierOfPrice(config, null)).toBeNull();
  });
});
