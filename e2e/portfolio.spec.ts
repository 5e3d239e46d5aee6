// Simulate and "Add to portfolio" from the screener, then /portfolio: against a server whose data
// directory was seeded with a week of rounds through the real ingestion pipeline, as e2e/screener.spec.ts.
import { expect, test, type Page } from "@playwright/test";
import { signUpInBrowser, uniqueEmail, switchToPro } from "./helpers/accounts";
import { seededMarketServerForFile } from "./helpers/seeded-market-server";

test.describe.configure({ mode: "serial" });

const seeded = seededMarketServerForFile("portfolio");

const rows = (page: Page) => page.locator("table[aria-label=Opportunities] tbody tr[data-opportunity]");

test("signed-out visitors are sent to sign in and back to /portfolio", async ({ browser }) => {
  const page = await (await browser.newContext({ baseURL: seeded.base })).newPage();
  await page.goto("/portfolio");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fportfolio$/);
  await page.context().close();
});

test("a Pro account simulates from the screener, adds the position, sees it on /portfolio and closes it", async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await (await browser.newContext({ baseURL: seeded.base })).newPage();
  await signUpInBrowser(page, uniqueEmail("portfolio-pro"));
  await switchToPro(page);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Screener" }).click();
  await expect(page).toHaveURL(/\/opportunities$/);
  const first = rows(page).first();
  const id = (await first.getAttribute("data-opportunity"))!;
  const symbol = id.split("-")[0]!;

  // A row's actions are under its Details.
  await first.getByRole("button", { name: /^Details of / }).click();
  const details = page.locator(`[id="details-${id}"]`);

  // Projected simulation.
  await details.getByRole("button", { name: "Simulate" }).click();
  const panel = page.getByRole("region", { name: `Simulate ${id}` });
  await panel.getByLabel("Notional (USD)").fill("25000");
  await panel.getByLabel("Holding days").fill("7");
  await panel.getByRole("button", { name: "Run simulation" }).click();
  const result = panel.getByTestId("simulation-result");
  await expect(result).toContainText("Net P&L");
  await expect(result).toContainText("Net APR");
  await expect(result).toContainText("Break-even");
  await expect(result).toContainText("Current rates held for 7 days");

  // Historical replay of the seeded week, with its daily chart.
  await panel.getByLabel("Mode").selectOption("historical");
  await panel.getByRole("button", { name: "Run simulation" }).click();
  await expect(result).toContainText("Replay of the last 7 days");
  await expect(result.getByRole("img", { name: `Daily cumulative P&L of ${id}` })).toBeVisible();
  await expect(result.locator("canvas").first()).toBeVisible();

  // Add to portfolio.
  await details.getByRole("button", { name: "Add to portfolio" }).click();
  const add = page.getByRole("region", { name: `Add ${id} to portfolio` });
  await add.getByLabel("Notional (USD)").fill("15000");
  await add.getByLabel("Note (optional)").fill("e2e hedge");
  await add.getByRole("button", { name: "Add position" }).click();
  await expect(page.getByText(`Added ${symbol}`)).toBeVisible();

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Portfolio" }).click();
  await expect(page).toHaveURL(/\/portfolio$/);
  await expect(page.getByRole("heading", { name: "Portfolio", level: 1 })).toBeVisible();
  const positions = page.locator("table[aria-label=Positions] tbody tr[data-position]");
  await expect(positions).toHaveCount(1);
  await expect(positions.first()).toContainText(symbol);
  await expect(positions.first()).toContainText("e2e hedge");
  await expect(positions.first()).toContainText("$15,000.00");
  await expect(positions.first().getByTestId("position-status")).toHaveText("Open");
  await expect(page.getByTestId("portfolio-totals")).toContainText("1 positions, 1 open");
  await expect(page.getByRole("heading", { name: "Cumulative funding earned" })).toBeVisible();

  // Close, cancelling once first: nothing changes until confirmed.
  await positions.first().getByRole("button", { name: "Close" }).click();
  const dialog = page.getByRole("dialog", { name: /^Close / });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(positions.first().getByTestId("position-status")).toHaveText("Open");

  await positions.first().getByRole("button", { name: "Close" }).click();
  await dialog.getByRole("button", { name: "Close position" }).click();
  await expect(positions.first().getByTestId("position-status")).toContainText("Closed");
  await expect(positions.first()).toContainText("realised");
  await expect(page.getByTestId("portfolio-totals")).toContainText("1 positions, 0 open");
  await expect(positions.first().getByRole("button", { name: "Close" })).toHaveCount(0);

  // Delete, confirmed.
  await positions.first().getByRole("button", { name: "Delete" }).click();
  await page.getByRole("dialog", { name: /^Delete / }).getByRole("button", { name: "Delete position" }).click();
  await expect(page.getByText("No positions yet.")).toBeVisible();
  await page.context().close();
});
