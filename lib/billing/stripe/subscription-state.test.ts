import { describe, expect, it } from "vitest";
import { customerState, extraSubscriptions, graceEndsAt, grantsTier, snapshotOf, type SubscriptionSnapshot } from "./subscription-state";
import type Stripe from "stripe";

const DAY = 24 * 60 * 60 * 1000;
const GRACE = 7 * DAY;
const config = { prices: { pro: "price_pro", desk: "price_desk" } };
const now = new Date("2026-11-24T12:00:00Z");

function snapshot(fields: Partial<SubscriptionSnapshot> & { id: string }): SubscriptionSnapshot {
  return {
    status: "active",
    priceId: "price_pro",
    tier: "pro",
    currentPeriodEnd: null,
    cancelAt: null,
    cancelAtPeriodEnd: false,
    created: new Date("2026-11-01T00:00:00Z"),
    ...fields,
  };
}

describe("snapshotOf", () => {
  it("takes the sold item's price and period end, and Stripe's seconds as dates", () => {
    const subscription = {
      id: "sub_1",
      status: "active",
      created: 1_700_000_000,
      cancel_at: 1_800_000_000,
      cancel_at_period_end: true,
      items: {
        data: [
          { price: { id: "price_addon" }, current_period_end: 1 },
          { price: { id: "price_desk" }, current_period_end: 1_790_000_000 },
        ],
      },
    } as unknown as Stripe.Subscription;
    expect(snapshotOf(subscription, config)).toEqual({
      id: "sub_1",
      status: "active",
      priceId: "price_desk",
      tier: "desk",
      currentPeriodEnd: new Date(1_790_000_000_000),
      cancelAt: new Date(1_800_000_000_000),
      cancelAtPeriodEnd: true,
      created: new Date(1_700_000_000_000),
    });
  });

  it("grants nothing for a price this service does not sell", () => {
    const subscription = { id: "sub_2", status: "active", created: 1, cancel_at: null, cancel_at_period_end: false, items: { data: [{ price: { id: "price_x" }, current_period_end: 2 }] } };
    expect(snapshotOf(subscription as unknown as Stripe.Subscription, config)).toMatchObject({ priceId: "price_x", tier: null });
  });
});

describe("grantsTier", () => {
  it("grants on active and trialing, and on past_due only within the grace period", () => {
    expect(grantsTier("active", "pro", null, now, GRACE)).toBe(true);
    expect(grantsTier("trialing", "desk", null, now, GRACE)).toBe(true);
    expect(grantsTier("past_due", "pro", new Date(now.getTime() - GRACE + 1), now, GRACE)).toBe(true);
    expect(grantsTier("past_due", "pro", new Date(now.getTime() - GRACE), now, GRACE)).toBe(false);
    expect(grantsTier("past_due", "pro", null, now, GRACE)).toBe(false);
    for (const status of ["canceled", "unpaid", "incomplete", "incomplete_expired", "paused", "something_new"]) {
      expect(grantsTier(status, "desk", null, now, GRACE)).toBe(false);
    }
    expect(grantsTier("active", null, null, now, GRACE)).toBe(false);
  });
});

describe("customerState", () => {
  it("is Free with no subscription", () => {
    expect(customerState([], null, now, now, GRACE)).toEqual({ subscription: null, pastDueSince: null, tier: "free" });
  });

  it("follows the subscription granting the highest tier", () => {
    const pro = snapshot({ id: "sub_pro" });
    const desk = snapshot({ id: "sub_desk", priceId: "price_desk", tier: "desk", created: new Date("2026-10-01T00:00:00Z") });
    const state = customerState([pro, desk], null, now, now, GRACE);
    expect(state.tier).toBe("desk");
    expect(state.subscription?.id).toBe("sub_desk");
  });

  it("shows the newest running subscription when none grants, else the newest ended one", () => {
    const ended = snapshot({ id: "sub_old", status: "canceled", created: new Date("2026-11-20T00:00:00Z") });
    const incomplete = snapshot({ id: "sub_new", status: "incomplete", created: new Date("2026-11-10T00:00:00Z") });
    expect(customerState([ended, incomplete], null, now, now, GRACE)).toMatchObject({ tier: "free", subscription: { id: "sub_new" } });
    const older = snapshot({ id: "sub_older", status: "canceled", created: new Date("2026-01-01T00:00:00Z") });
    expect(customerState([older, ended], null, now, now, GRACE)).toMatchObject({ tier: "free", subscription: { id: "sub_old" } });
  });

  it("starts the grace period when a subscription is first seen past_due, and keeps that moment afterwards", () => {
    const pastDue = snapshot({ id: "sub_1", status: "past_due" });
    const reported = new Date(now.getTime() - 1000);
    const first = customerState([pastDue], { subscriptionId: "sub_1", pastDueSince: null }, now, reported, GRACE);
    expect(first).toMatchObject({ tier: "pro", pastDueSince: reported });

    const later = new Date(now.getTime() + GRACE);
    const again = customerState([pastDue], { subscriptionId: "sub_1", pastDueSince: reported }, later, later, GRACE);
    expect(again).toMatchObject({ tier: "free", pastDueSince: reported });
  });

  it("clears the grace period once the payment succeeds", () => {
    const active = snapshot({ id: "sub_1", status: "active" });
    expect(customerState([active], { subscriptionId: "sub_1", pastDueSince: now }, now, now, GRACE)).toMatchObject({ tier: "pro", pastDueSince: null });
  });

  it("does not carry one subscription's grace period over to another", () => {
    const pastDue = snapshot({ id: "sub_2", status: "past_due" });
    const long_ago = new Date(now.getTime() - 30 * DAY);
    expect(customerState([pastDue], { subscriptionId: "sub_1", pastDueSince: long_ago }, now, now, GRACE)).toMatchObject({ tier: "pro", pastDueSince: now });
  });
});

describe("graceEndsAt", () => {
  it("is the first moment a past_due subscription no longer grants", () => {
    expect(graceEndsAt("past_due", now, GRACE)).toEqual(new Date(now.getTime() + GRACE));
    expect(graceEndsAt("active", now, GRACE)).toBeNull();
    expect(graceEndsAt("past_due", null, GRACE)).toBeNull();
  });
});

describe("extraSubscriptions", () => {
  it("lists every subscription Stripe would bill besides the followed one; ended and incomplete ones are not", () => {
    const subscriptions = ["active", "trialing", "past_due", "unpaid", "paused", "incomplete", "incomplete_expired", "canceled"].map((status) =>
      snapshot({ id: `sub_${status}`, status }),
    );
    expect(extraSubscriptions(subscriptions, "sub_active").map((s) => s.id)).toEqual(["sub_trialing", "sub_past_due", "sub_unpaid", "sub_paused"]);
    expect(extraSubscriptions([snapshot({ id: "sub_only" })], "sub_only")).toEqual([]);
    expect(extraSubscriptions([snapshot({ id: "sub_a" })], null).map((s) => s.id)).toEqual(["sub_a"]);
  });
});
