// Stripe billing in the browser, against a server of its own configured for Stripe and pointed at
// the local Stripe stand-in (tests/support/stripe-stand-in.ts): upgrade → Checkout redirect, the
// webhook that applies the subscription, Manage billing → portal, and the webhook that downgrades a
// cancelled subscription. The run's main server keeps the default demo billing.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext, type Browser, type BrowserContext } from "@playwright/test";
import { freePort } from "../tests/support/free-port";
import { signedEvent, startStripeStandIn, stripeSubscription, type StripeStandIn } from "../tests/support/stripe-stand-in";
import { signInRequest, signUpInBrowser, signUpRequest, uniqueEmail } from "./helpers/accounts";
import { startServer, waitUntilHealthy, type ServerProcess } from "./helpers/server-process";

const WEBHOOK_SECRET = "whsec_e2e_stand_in";
const STRIPE_ENV = {
  STRIPE_SECRET_KEY: "sk_test_e2e_stand_in",
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_PRICE_PRO: "price_e2e_pro",
  STRIPE_PRICE_DESK: "price_e2e_desk",
};

test.describe("Stripe billing", () => {
  test.describe.configure({ mode: "serial" });
  let standIn: StripeStandIn;
  let server: ServerProcess;
  let base: string;
  let dataDir: string;
  let context: BrowserContext;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(150_000);
    standIn = await startStripeStandIn();
    standIn.sellAtListPrices({ pro: STRIPE_ENV.STRIPE_PRICE_PRO, desk: STRIPE_ENV.STRIPE_PRICE_DESK });
    dataDir = mkdtempSync(path.join(os.tmpdir(), "fods-stripe-"));
    // The spawned server inherits this process's environment (its SMTP catcher included) at spawn.
    Object.assign(process.env, STRIPE_ENV, { STRIPE_API_BASE: standIn.url });
    try {
      server = await startServer(dataDir, await freePort());
    } finally {
      for (const name of [...Object.keys(STRIPE_ENV), "STRIPE_API_BASE"]) delete process.env[name];
    }
    await waitUntilHealthy(server.port);
    base = `http://localhost:${server.port}`;
    context = await newSignedInContext(browser, base);
  });

  test.afterAll(async () => {
    await context?.close();
    server?.child.kill("SIGTERM");
    await server?.exited;
    await standIn?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("reconciles with Stripe at start-up", async () => {
    await expect.poll(() => server.output()).toContain("Stripe billing: reconciled 0 customer(s), 0 tier change(s)");
    expect(standIn.requestsTo("/v1/subscriptions")[0]).toMatchObject({ method: "GET", query: { status: "all", limit: "100" } });
  });

  test("upgrade sends the browser to Stripe Checkout for the plan's price", async () => {
    const page = await context.newPage();
    await page.goto(`${base}/account/plan`);
    await expect(page.getByRole("heading", { name: "Current plan: Free" })).toBeVisible();
    await expect(page.getByText("Billed through Stripe")).toBeVisible();
    await expect(page.getByText("demo billing")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Manage billing" })).toHaveCount(0);

    await page.getByRole("button", { name: "Upgrade to Pro" }).click();
    await expect(page).toHaveURL(new RegExp(`^${standIn.url}/checkout/cs_test_standin_\\d+$`));
    await expect(page.getByRole("heading", { name: "Stripe checkout stand-in" })).toBeVisible();

    const [customer] = standIn.requestsTo("/v1/customers");
    const [session] = standIn.requestsTo("/v1/checkout/sessions");
    const accountId = customer!.form["metadata[account_id]"]!;
    expect(customer!.form).toEqual({ email: expect.stringMatching(/^stripe-e2e-.*@e2e\.test$/), "metadata[account_id]": accountId });
    expect(session!.form).toEqual({
      mode: "subscription",
      customer: expect.stringMatching(/^cus_standin_\d+$/),
      client_reference_id: accountId,
      "line_items[0][price]": "price_e2e_pro",
      "line_items[0][quantity]": "1",
      "metadata[account_id]": accountId,
      "metadata[tier]": "pro",
      "subscription_data[metadata][account_id]": accountId,
      success_url: `${base}/account/plan?checkout=success`,
      cancel_url: `${base}/account/plan?checkout=cancelled`,
      expires_at: expect.stringMatching(/^\d+$/),
    });
    await page.close();
  });

  test("the webhook applies the paid subscription, and Manage billing opens the portal", async () => {
    const customerId = standIn.requestsTo("/v1/checkout/sessions")[0]!.form.customer!;
    const accountId = standIn.requestsTo("/v1/customers")[0]!.form["metadata[account_id]"]!;
    standIn.subscriptions.set(customerId, [stripeSubscription({ id: "sub_e2e", customer: customerId, price: "price_e2e_pro", status: "active", accountId })]);
    const completed = await postEvent(context.request, base, "checkout.session.completed", {
      id: "cs_e2e",
      object: "checkout.session",
      customer: customerId,
      client_reference_id: accountId,
      subscription: "sub_e2e",
    });
    expect(completed).toMatchObject({ status: 200, body: { data: { result: "processed", tier: "pro" } } });

    const page = await context.newPage();
    await page.goto(`${base}/account/plan?checkout=success`);
    await expect(page.getByRole("heading", { name: "Current plan: Pro" })).toBeVisible();
    await expect(page.locator("dd").filter({ hasText: /^Active/ })).toBeVisible();
    await expect(page.getByText("Renews on")).toBeVisible();
    await expect(page.getByRole("button", { name: /Upgrade to/ })).toHaveCount(0);

    await page.getByRole("button", { name: "Manage billing" }).click();
    await expect(page).toHaveURL(new RegExp(`^${standIn.url}/portal/bps_standin_\\d+$`));
    expect(standIn.requestsTo("/v1/billing_portal/sessions")[0]!.form).toEqual({ customer: customerId, return_url: `${base}/account/plan` });
    await page.close();
  });

  test("a bad signature is refused with 400 and a cancelled subscription's webhook downgrades to Free", async () => {
    const customerId = standIn.requestsTo("/v1/checkout/sessions")[0]!.form.customer!;
    const cancelled = stripeSubscription({ id: "sub_e2e", customer: customerId, price: "price_e2e_pro", status: "canceled" });
    const forged = signedEvent("whsec_not_ours", "customer.subscription.deleted", cancelled);
    const refused = await context.request.post(`${base}/api/billing/stripe/webhook`, {
      data: forged.payload,
      headers: { "Content-Type": "application/json", "Stripe-Signature": forged.signature },
    });
    expect(refused.status()).toBe(400);
    expect((await refused.json()).error).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid Stripe-Signature" });

    const page = await context.newPage();
    await page.goto(`${base}/account/plan`);
    await expect(page.getByRole("heading", { name: "Current plan: Pro" })).toBeVisible();

    standIn.subscriptions.set(customerId, [cancelled]);
    expect(await postEvent(context.request, base, "customer.subscription.deleted", cancelled)).toMatchObject({
      status: 200,
      body: { data: { result: "processed", tier: "free" } },
    });
    await page.reload();
    await expect(page.getByRole("heading", { name: "Current plan: Free" })).toBeVisible();
    await expect(page.locator("dd").filter({ hasText: /^Cancelled/ })).toBeVisible();
    await expect(page.getByRole("button", { name: "Upgrade to Pro" })).toBeVisible();

    await page.goto(`${base}/account/security`);
    await expect(page.getByText("Stripe customer.subscription.deleted: Pro → Free")).toBeVisible();
    await page.close();
  });
});

test("the default demo billing is labelled on the plan page", async ({ page }) => {
  await signUpInBrowser(page, uniqueEmail("demo-billing"));
  await page.goto("/account/plan");
  await expect(page.getByRole("heading", { name: /Current plan: Free/ })).toContainText("demo billing");
  await expect(page.getByText("Demo billing: plan changes apply immediately and nothing is charged.")).toBeVisible();
});

async function newSignedInContext(browser: Browser, base: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: base });
  const email = uniqueEmail("stripe-e2e");
  await signUpRequest(context.request, base, email);
  await signInRequest(context.request, email);
  return context;
}

/** Delivers a signed event to the webhook as Stripe (or `stripe listen`) does. */
async function postEvent(request: APIRequestContext, base: string, type: string, object: object) {
  const event = signedEvent(WEBHOOK_SECRET, type, object);
  const response = await request.post(`${base}/api/billing/stripe/webhook`, {
    data: event.payload,
    headers: { "Content-Type": "application/json", "Stripe-Signature": event.signature },
  });
  return { status: response.status(), body: await response.json() };
}
