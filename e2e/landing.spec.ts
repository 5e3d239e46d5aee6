import { expect, test } from "@playwright/test";
import { signUpInBrowser, uniqueEmail } from "./helpers/accounts";
import { pageOverflow } from "./helpers/axe";
import { HEALTH_DETAILS } from "./helpers/server-process";
import { listPrice, planComparison, PLANS } from "../lib/plans";

test("the landing page says what the service is, shows the three plans with their prices and where to sign in", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Funding-rate arbitrage");
  const plans = page.locator(".tier");
  await expect(plans).toHaveCount(3);
  const plan = (name: string) => plans.filter({ has: page.getByRole("heading", { name, exact: true }) });
  for (const row of PLANS) {
    await expect(plan(row.name)).toContainText(listPrice(row));
    await expect(plan(row.name)).toContainText(row.summary);
  }
  await expect(page.getByRole("link", { name: "Sign in" }).first()).toHaveAttribute("href", "/signin");
  await expect(page.getByRole("link", { name: "Create an account" })).toHaveAttribute("href", "/signup");
  const free = PLANS.find((row) => !row.features.liveData)!;
  await expect(page.getByRole("link", { name: `See the screener (delayed ${free.dataDelayMinutes} min, no account needed)` })).toHaveAttribute(
    "href",
    "/opportunities",
  );
  // Nothing is fetched from another origin (no CDN fonts or scripts).
  const foreign: string[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith("http://localhost")) foreign.push(request.url());
  });
  await page.reload();
  await page.waitForLoadState("load");
  expect(foreign).toEqual([]);
});

test("the plans' comparison table states every price and limit of the plans table, and fits a phone", async ({ page }) => {
  await page.goto("/");
  const table = page.getByRole("table", { name: /What each plan includes/ });
  await expect(table.getByRole("columnheader")).toHaveText(PLANS.map((row) => row.name));
  const expected = planComparison(PLANS);
  // The spot checks below read the table's own numbers, so a change there is a change here.
  expect(expected.find((row) => row.label === "Price")!.values).toEqual(PLANS.map(listPrice));
  expect(expected.find((row) => row.label === "API requests per minute, per key")!.values).toEqual(["No API access", "100", "1,000"]);
  await expect(table.getByRole("rowheader")).toHaveText(expected.map((row) => row.label));
  for (const row of expected) {
    const line = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: row.label, exact: true }) });
    await expect(line.getByRole("cell"), row.label).toHaveText(row.values);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  const box = (await table.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(await pageOverflow(page)).toBeNull();
});

test("signed-in visitors get the screener and their API keys on the landing page, not sign-up", async ({ page }) => {
  await signUpInBrowser(page, uniqueEmail("landing"));
  await page.goto("/");
  const actions = page.locator(".hero .actions");
  await expect(actions.getByRole("link", { name: "Open the screener" })).toHaveAttribute("href", "/opportunities");
  await expect(actions.getByRole("link", { name: "Account → API Keys" })).toHaveAttribute("href", "/account/api-keys");
  await expect(page.getByRole("link", { name: "Create an account" })).toHaveCount(0);
});

test("on a phone the Account menu stays on screen and wide tables scroll inside their own box", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUpInBrowser(page, uniqueEmail("phone"));
  for (const path of ["/", "/account/api-keys", "/account/webhooks", "/account/alerts", "/account/plan", "/account/security", "/opportunities", "/docs"]) {
    await page.goto(path);
    const account = (await page.locator("summary", { hasText: "Account" }).boundingBox())!;
    expect(account.x + account.width, path).toBeLessThanOrEqual(390);
    expect(await pageOverflow(page), `${path} scrolls sideways`).toBeNull();
  }
});

test("the site icon is served, so browsers do not ask for a missing /favicon.ico", async ({ page, request }) => {
  await page.goto("/");
  const href = await page.locator('link[rel="icon"]').first().getAttribute("href");
  const response = await request.get(href!);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("image/svg+xml");
});

test("GET /healthz tells everyone the status, and the operator the database and the build version", async ({ request }) => {
  const anonymous = await request.get("/healthz");
  expect(anonymous.status()).toBe(200);
  expect(await anonymous.json()).toEqual({ status: "ok" });

  const response = await request.get("/healthz", { headers: HEALTH_DETAILS });
  expect(response.status()).toBe(200);
  const body = await response.json();
  expect(body).toMatchObject({ status: "ok", version: expect.any(String), database: { status: "up", driver: "pglite" } });
  expect(body.build_id).toEqual(expect.any(String));
});

test("an unauthenticated /v1 request is a 401 in the error envelope", async ({ request }) => {
  const response = await request.get("/v1/does-not-exist");
  expect(response.status()).toBe(401);
  const body = await response.json();
  expect(body.error).toEqual({ code: "UNAUTHORIZED", message: "Invalid or missing API key: the Authorization header is missing" });
  expect(response.headers()["www-authenticate"]).toBe("Bearer");
  expect(body.meta.request_id).toBe(response.headers()["x-request-id"]);
});
