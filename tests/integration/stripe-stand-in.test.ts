// The Stripe stand-in refuses what Stripe refuses and pages as Stripe pages, so billing code that
// would fail or stop at the first page against Stripe fails in tests too: exercised through the
// unchanged `stripe` client, which turns each answer into the error class Stripe's would become.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type Stripe from "stripe";
import { startStripeStandIn, stripeSubscription, standInProvider, type StripeStandIn } from "@/tests/support/stripe-stand-in";

let standIn: StripeStandIn;
let client: Stripe;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  const provider = standInProvider(standIn, { secretKey: "sk_test_stand_in_itself", webhookSecret: "whsec_x", pricePro: "price_pro", priceDesk: "price_desk" });
  client = await provider.client();
});
afterAll(() => standIn?.stop());

const session = { mode: "subscription" as const, customer: "cus_1", line_items: [{ price: "price_pro", quantity: 1 }], success_url: "https://example.com/ok" };

describe("validation, in Stripe's error shape", () => {
  it("refuses a subscription-mode session without line items, naming the parameter", async () => {
    await expect(client.checkout.sessions.create({ mode: "subscription", customer: "cus_1", success_url: "https://example.com/ok" })).rejects.toMatchObject({
      type: "StripeInvalidRequestError",
      statusCode: 400,
      code: "parameter_missing",
      param: "line_items",
      message: "Missing required param: line_items.",
      raw: expect.objectContaining({ type: "invalid_request_error" }),
    });
  });

  it("refuses an unknown parameter, naming it", async () => {
    const unknown = { ...session, automatic_tax_everywhere: "yes" } as unknown as Stripe.Checkout.SessionCreateParams;
    await expect(client.checkout.sessions.create(unknown)).rejects.toMatchObject({
      type: "StripeInvalidRequestError",
      statusCode: 400,
      code: "parameter_unknown",
      param: "automatic_tax_everywhere",
      message: "Received unknown parameter: automatic_tax_everywhere",
    });
    await expect(client.subscriptions.list({ customer: "cus_1", colour: "blue" } as Stripe.SubscriptionListParams)).rejects.toMatchObject({ param: "colour" });
  });

  it("replays a request repeated with its idempotency key, and refuses the key with other parameters (idempotency_error)", async () => {
    const first = await client.customers.create({ email: "a@example.com" }, { idempotencyKey: "key-reused" });
    const replay = await client.customers.create({ email: "a@example.com" }, { idempotencyKey: "key-reused" });
    expect(replay.id).toBe(first.id);
    await expect(client.customers.create({ email: "b@example.com" }, { idempotencyKey: "key-reused" })).rejects.toMatchObject({
      type: "StripeIdempotencyError",
      statusCode: 400,
      message: expect.stringContaining("Keys for idempotent requests can only be used with the same parameters they were first used with"),
      raw: expect.objectContaining({ type: "idempotency_error" }),
    });
  });

  it("answers 404 resource_missing for an unknown id, and refuses to expire a session that is not open", async () => {
    await expect(client.subscriptions.cancel("sub_nowhere")).rejects.toMatchObject({ statusCode: 404, code: "resource_missing", message: "No such subscription: 'sub_nowhere'" });
    const created = await client.checkout.sessions.create(session);
    expect(await client.checkout.sessions.expire(created.id)).toMatchObject({ status: "expired" });
    await expect(client.checkout.sessions.expire(created.id)).rejects.toMatchObject({ type: "StripeInvalidRequestError", statusCode: 400 });
  });
});

describe("pagination", () => {
  it("pages lists as Stripe does: 10 by default, at most 100, starting_after, has_more, the list object", async () => {
    standIn.subscriptions.clear();
    for (let i = 0; i < 25; i++) standIn.subscriptions.set(`cus_p${i}`, [stripeSubscription({ id: `sub_p${i}`, customer: `cus_p${i}`, price: "price_pro", status: "active" })]);
    const first = await client.subscriptions.list();
    expect(first).toMatchObject({ object: "list", url: "/v1/subscriptions", has_more: true });
    expect(first.data.map((s) => s.id)).toEqual(Array.from({ length: 10 }, (_, i) => `sub_p${i}`));
    const last = await client.subscriptions.list({ limit: 20, starting_after: "sub_p9" });
    expect(last.data.map((s) => s.id)).toEqual(Array.from({ length: 15 }, (_, i) => `sub_p${i + 10}`));
    expect(last.has_more).toBe(false);
    const all = await client.subscriptions.list({ limit: 7 }).autoPagingToArray({ limit: 100 });
    expect(all).toHaveLength(25);
    await expect(client.subscriptions.list({ limit: 101 })).rejects.toMatchObject({ statusCode: 400, param: "limit" });
    await expect(client.subscriptions.list({ starting_after: "sub_gone" })).rejects.toMatchObject({ statusCode: 400, param: "starting_after" });
  });
});
