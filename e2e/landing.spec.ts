import { expect, test } from "@playwright/test";

test("the landing page says what the service is, shows the three tiers and where to sign in", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Funding-rate arbitrage");
  const plans = page.locator(".tier");
  await expect(plans).toHaveCount(3);
  const plan = (name: string) => plans.filter({ has: page.getByRole("heading", { name, exact: true }) });
  await expect(plan("Free")).toContainText("No API access");
  await expect(plan("Pro")).toContainText("100 requests/min");
  await expect(plan("Desk")).toContainText("1000 requests/min");
  await expect(page.getByRole("link", { name: "Sign in" }).first()).toHaveAttribute("href", "/signin");
  await expect(page.getByRole("link", { name: "Create an account" })).toHaveAttribute("href", "/signup");
  // Nothing is fetched from another origin (no CDN fonts or scripts).
  const foreign: string[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith("http://localhost")) foreign.push(request.url());
  });
  await page.reload();
  await page.waitForLoadState("load");
  expect(foreign).toEqual([]);
});

test("GET /healthz reports the database up and the build version", async ({ request }) => {
  const response = await request.get("/healthz");
  expect(response.status()).toBe(200);
  const body = await response.json();
  expect(body).toMatchObject({ status: "ok", version: expect.any(String), database: { status: "up", driver: "pglite" } });
  expect(body.build_id).toEqual(expect.any(String));
});

test("an unauthenticated /v1 request is a 401 in the spec's error envelope", async ({ request }) => {
  const response = await request.get("/v1/does-not-exist");
  expect(response.status()).toBe(401);
  const body = await response.json();
  expect(body.error).toEqual({ code: "UNAUTHORIZED", message: "Invalid or missing API key" });
  expect(body.meta.request_id).toBe(response.headers()["x-request-id"]);
});
