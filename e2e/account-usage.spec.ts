import { expect, test } from "@playwright/test";
import { keyOnPlan, signInRequest, signUpInBrowser, uniqueEmail } from "./helpers/accounts";
import { OPERATOR_EMAIL } from "./helpers/e2e-env";

test("requests made with a key show on Account → Usage, in GET /v1/usage and in the operator console", async ({ page, browser, baseURL }) => {
  const email = uniqueEmail("usage");
  await signUpInBrowser(page, email);
  const { key, view } = await keyOnPlan(page.request, baseURL!, "pro", { name: "usage bot", mode: "test", permissions: ["opportunities:read"] });

  // Three successes and two client errors, as a bot would make them.
  const authorization = { Authorization: `Bearer ${key}` };
  const statuses = [];
  for (const path of ["/v1/auth/verify", "/v1/auth/verify", "/v1/opportunities?limit=5", "/v1/opportunities?limit=999", "/v1/opportunities/NOPE-binance-bybit"]) {
    statuses.push((await page.request.get(path, { headers: authorization })).status());
  }
  expect(statuses).toEqual([200, 200, 200, 400, 404]);

  await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Usage" }).click();
  await expect(page).toHaveURL(/\/account\/usage$/);
  await expect(page.getByRole("heading", { level: 2, name: "Usage" })).toBeVisible();
  // Counted off the request path: the numbers arrive within a few seconds.
  const allKeys = page.getByRole("table", { name: "Requests made with all your keys" });
  await expect
    .poll(
      async () => {
        await page.reload();
        return allKeys.getByRole("row", { name: /^All requests/ }).getByRole("cell").allInnerTexts();
      },
      { timeout: 20_000, intervals: [1_000] },
    )
    .toEqual(["5", "5"]);
  await expect(allKeys.getByRole("row", { name: /^Successes/ }).getByRole("cell")).toHaveText(["3", "3"]);
  await expect(allKeys.getByRole("row", { name: /^Client errors/ }).getByRole("cell")).toHaveText(["2", "2"]);
  await expect(allKeys.getByRole("row", { name: /^Rate limited/ }).getByRole("cell")).toHaveText(["0", "0"]);
  await expect(allKeys.getByRole("columnheader")).toHaveText(["Outcome", "Last 24 hours", "Last 30 days"]);
  // The charts' axis numbers and hour labels stay readable however narrow the chart: 12 px on a phone too.
  await page.setViewportSize({ width: 390, height: 844 });
  const hourChart = page.getByRole("figure").filter({ has: page.getByRole("img", { name: /^Requests per hour, last 24 hours/ }) });
  const sizes = await hourChart
    .locator("span[aria-hidden=true], [aria-hidden=true] > span")
    .evaluateAll((labels) => labels.map((label) => Number.parseFloat(getComputedStyle(label).fontSize)));
  // At least two axis numbers (0 and the top) and the four 6-hourly labels.
  expect(sizes.length).toBeGreaterThanOrEqual(6);
  expect(Math.min(...sizes)).toBeGreaterThanOrEqual(12);
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect(page.getByRole("img", { name: "Requests per hour, last 24 hours: 5 requests in all" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Requests per day, last 30 days: 5 requests in all" })).toBeVisible();
  const routes = page.getByRole("table", { name: "Requests per route, last 30 days" });
  await expect(routes.getByRole("row", { name: /GET \/v1\/auth\/verify/ }).getByRole("cell").first()).toHaveText("2");
  await expect(routes.getByRole("row", { name: /^GET \/v1\/opportunities / }).getByRole("cell").first()).toHaveText("2");

  const panel = page.getByRole("region", { name: /usage bot/ });
  await expect(panel).toContainText(view.prefix);
  await expect(panel.getByTestId("peak").first()).toHaveText(/^Busiest minute, last 24 hours: peak [1-5] of 100 req\/min/);
  await expect(panel.getByRole("table", { name: "Requests made with usage bot" }).getByRole("row", { name: /^All requests/ }).getByRole("cell")).toHaveText(["5", "5"]);
  await page.screenshot({ path: "e2e-artifacts/account-usage.png", fullPage: true });

  // The API gives the same numbers to the key's account.
  const answer = await page.request.get("/v1/usage?granularity=day", { headers: authorization });
  expect(answer.status()).toBe(200);
  const { data } = (await answer.json()) as { data: { totals: Record<string, number>; keys: { prefix: string }[] } };
  expect(data.totals).toEqual({ requests: 5, successes: 3, client_errors: 2, rate_limited: 0, server_errors: 0 });
  expect(data.keys.map((k) => k.prefix)).toEqual([view.prefix]);

  // The operator sees the account's usage in the console.
  const operator = await browser.newContext({ baseURL });
  const consolePage = await operator.newPage();
  await signInRequest(consolePage.request, OPERATOR_EMAIL);
  await consolePage.goto(`/admin?q=${encodeURIComponent(email)}`);
  const found = consolePage.getByRole("table", { name: /^Accounts whose e-mail contains/ }).getByRole("row", { name: new RegExp(email.replace(/[.+]/g, "\\$&")) });
  // The GET /v1/usage above may have been counted by now: 5 or 6 requests.
  await expect(found.getByRole("cell").nth(1)).toHaveText(/^[56]$/);
  await expect(found.getByRole("cell").nth(0)).toHaveText("Pro");
  await operator.close();
});
