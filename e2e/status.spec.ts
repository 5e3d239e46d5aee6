import { expect, test } from "@playwright/test";

test("the feed status page is public: a table of every venue's transport, latency and reconnects, with a chart each", async ({ page }) => {
  const response = await page.goto("/status");
  expect(response?.status()).toBe(200);
  // Signed out and not sent to sign in.
  await expect(page).toHaveURL(/\/status$/);
  await expect(page.getByRole("heading", { level: 1, name: "Feed status" })).toBeVisible();
  const table = page.getByRole("table", { name: /Per venue: transport/ });
  await expect(table).toBeVisible();
  for (const heading of ["Venue", "Transport", "Last message", "p50 latency", "p99 latency", "Reconnects (24 h)"]) {
    await expect(table.getByRole("columnheader", { name: heading, exact: true })).toBeVisible();
  }
  await expect(table.getByRole("rowheader", { name: /Binance/ })).toBeVisible();
  const binance = table.locator('tr[data-venue="binance"]');
  await expect(binance.getByRole("cell").first()).toHaveText(/Poll|Stream/);
  await expect(binance.getByRole("img", { name: "Binance: p99 venue-to-publish latency per minute, last hour" })).toBeVisible();
  expect(await table.locator("tbody tr").count()).toBeGreaterThan(20);
  // Reached from the navigation on every page.
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Status" }).click();
  await expect(page).toHaveURL(/\/status$/);
});
