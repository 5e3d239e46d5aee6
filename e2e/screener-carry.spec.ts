// The screener's carry tab (/carry) on the bundled offline sample, which carries a spot–perp set
// beside its perp pairs (e2e/helpers/seed-sample-market.ts): signed out, as the public sees it.
// Tabs between the two lists, filters by the side of the trade, refuses a bad filter in words,
// and fits 1280 px and 390 px windows with no serious accessibility finding.
import { expect, type Browser, type Page } from "@playwright/test";
import { blockingViolations, pageOverflow } from "./helpers/axe";
import { test } from "./helpers/seeded-market-server";

test.describe.configure({ mode: "serial" });

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

// The worker's sample market server, which this spec only reads.
let base: string;

test.beforeAll(({ sampleMarket }) => {
  base = sampleMarket.base;
});

async function openPage(browser: Browser, viewport: { width: number; height: number } = WIDTHS[0]): Promise<Page> {
  const context = await browser.newContext({ baseURL: base, viewport });
  return context.newPage();
}

const rows = (page: Page) => page.locator("table[aria-label='Carry opportunities'] tbody tr[data-carry]");
const tabs = (page: Page) => page.getByRole("navigation", { name: "Screener lists" });

test("the carry tab is reached from the screener by keyboard, shows the sample badged and delayed as the public sees it, and tabs back with the shared filters", async ({ browser }) => {
  const page = await openPage(browser);
  await page.goto("/opportunities?symbol=BTC&sort=-net_apr&limit=20");
  await expect(tabs(page).getByRole("link", { name: "Perp pairs" })).toHaveAttribute("aria-current", "page");
  const carryTab = tabs(page).getByRole("link", { name: "Spot–perp carry" });
  await expect(carryTab).not.toHaveAttribute("aria-current", "page");
  await carryTab.focus();
  await page.keyboard.press("Enter");
  // A first render of the tab on a busy machine can take a while.
  await expect(page).toHaveURL(/\/carry\?symbol=BTC&limit=20&sort=-net_apr$/, { timeout: 20_000 });

  await expect(page.getByRole("heading", { name: "Spot–perp carry" })).toBeVisible();
  await expect(tabs(page).getByRole("link", { name: "Spot–perp carry" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("note")).toContainText("Signed out: the Free plan's view, data delayed by 15 minutes.");
  await expect(page.getByTestId("freshness")).toContainText("Sample data (bundled snapshot, not live)");
  // The URL's filters are the form's values and the table's order.
  await expect(page.getByLabel("Asset")).toHaveValue("BTC");
  await expect(page.getByLabel("Sort by")).toHaveValue("-net_apr");
  await expect(page.getByLabel("Rows per page")).toHaveValue("20");
  const count = await rows(page).count();
  expect(count).toBeGreaterThan(0);
  expect(count).toBeLessThanOrEqual(20);
  await expect(page.getByTestId("sample-row")).toHaveCount(count);
  const netAprs = (await rows(page).locator("td[data-col=net_apr]").allTextContents()).map((text) => Number.parseFloat(text));
  expect(netAprs).toEqual([...netAprs].sort((a, b) => b - a));
  // Net APR on the colour scale, as the screener's.
  expect(await rows(page).locator("td[data-col=net_apr][data-shade]").count()).toBe(count);
  // The heading sorts the other way on a click.
  await page.getByRole("columnheader", { name: /Net APR/ }).getByRole("link").click();
  await expect(page).toHaveURL(/sort=net_apr/);
  await expect(page.getByRole("columnheader", { name: /Net APR/ })).toHaveAttribute("aria-sort", "ascending");

  await tabs(page).getByRole("link", { name: "Perp pairs" }).click();
  await expect(page).toHaveURL(/\/opportunities\?symbol=BTC&limit=20&sort=net_apr$/);
  await expect(page.getByLabel("Symbol")).toHaveValue("BTC");
  await page.context().close();
});

test("filtering by the side of the trade lists only that side, each in words with its borrow figures", async ({ browser }) => {
  const page = await openPage(browser);
  await page.goto("/carry");
  const all = await rows(page).count();
  expect(all).toBeGreaterThan(0);

  await page.getByLabel("Trade").selectOption({ label: "Borrowed spot, long perpetual" });
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/[?&]type=perp_spot(&|$)/);
  await expect(page.getByLabel("Trade")).toHaveValue("perp_spot");
  const borrowed = rows(page);
  expect(await borrowed.count()).toBeGreaterThan(0);
  expect(await page.locator("tr[data-carry]:not([data-type=perp_spot])").count()).toBe(0);
  for (const text of await borrowed.locator("td[data-col=type]").allTextContents()) expect(text).toBe("Borrowed spot, long perpetual");
  // The sample's borrowed spot is OKX's recorded BTC loan: 0.019992 % a day, 10 BTC lendable.
  for (const text of await borrowed.locator("td[data-col=borrow_apr]").allTextContents()) expect(text).toBe("7.30%");
  for (const text of await borrowed.locator("td[data-col=borrowable]").allTextContents()) expect(text).toBe("10 BTC");

  await page.goto("/carry?type=spot_perp");
  const held = await rows(page).count();
  expect(held).toBeGreaterThan(0);
  for (const text of await rows(page).locator("td[data-col=borrow_apr]").allTextContents()) expect(text).toContain("n/a");
  await expect(page.getByText(`Showing 1–${Math.min(held, 50)} of `)).toBeVisible();

  // A filter nothing matches says so; a refused one says which and why.
  await page.goto("/carry?symbol=NOSUCHASSET");
  await expect(page.getByText("No carry opportunities match these filters.")).toBeVisible();
  await expect(rows(page)).toHaveCount(0);
  await page.goto("/carry?type=perp_perp&limit=500");
  // Next.js's route announcer is an alert too, empty.
  const alert = page.getByRole("alert").filter({ hasText: "These filters are not valid:" });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText("limit: Must be at most 100");
  await expect(alert).toContainText("type: Must be one of: spot_perp, perp_spot");
  await page.context().close();
});

for (const viewport of WIDTHS) {
  test(`the carry tab fits ${viewport.width} px with no serious accessibility finding`, async ({ browser }) => {
    const page = await openPage(browser, viewport);
    await page.goto("/carry?limit=100");
    expect(await rows(page).count()).toBeGreaterThan(0);
    const measured = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      table: Math.round(document.querySelector("table[aria-label='Carry opportunities']")?.getBoundingClientRect().width ?? 0),
    }));
    console.log(`carry tab, ${viewport.width} px: table ${measured.table} px, page ${measured.page} px`);
    expect(await pageOverflow(page)).toBeNull();
    expect(await blockingViolations(page)).toEqual([]);
    await page.screenshot({ path: `e2e-artifacts/screener-carry-${viewport.width}.png`, fullPage: true });
    await page.context().close();
  });
}
