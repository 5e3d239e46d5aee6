// The screener at /opportunities against a server whose data directory was seeded with a week of
// rounds through the real ingestion pipeline (e2e/helpers/seed-screener-market.ts):
// four venues, five assets in every round, LINK only in the newest round (a minute old), so the
// Free plan's 15-minute delay is visible as a set without LINK.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { PASSWORD, signUpInBrowser, signUpRequest, uniqueEmail, switchToPro } from "./helpers/accounts";
import { seededMarketServerForFile } from "./helpers/seeded-market-server";

test.describe.configure({ mode: "serial" });

const seeded = seededMarketServerForFile("screener");

async function seededPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: seeded.base });
  return context.newPage();
}

const rows = (page: Page) => page.locator("table[aria-label=Opportunities] tbody tr[data-opportunity]");

/** Each row's APR column as a number. */
async function aprs(page: Page): Promise<number[]> {
  const texts = await rows(page).locator("td:nth-of-type(3)").allTextContents();
  return texts.map((t) => Number.parseFloat(t));
}

test("signed-out visitors sign in and come back to the screener with their filters", async ({ page, baseURL }) => {
  await page.goto("/opportunities?exchange=okx");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fopportunities%3Fexchange%3Dokx$/);
  const email = uniqueEmail("screener-return");
  await signUpRequest(page.request, baseURL!, email);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/opportunities\?exchange=okx$/);
  await expect(page.getByRole("heading", { name: "Opportunity screener" })).toBeVisible();
  await expect(page.getByLabel("Exchange")).toHaveValue("okx");
  // This server never ran a round nor loaded the sample (INGEST_DISABLED): it says so.
  await expect(page.getByText("No opportunities yet")).toBeVisible();
});

test("a Free account sees the 15-minute delayed set, filters, sorts and opens a row's funding chart", async ({ browser }) => {
  const page = await seededPage(browser);
  await signUpInBrowser(page, uniqueEmail("screener-free"));
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Screener" }).click();
  await expect(page).toHaveURL(/\/opportunities$/);

  const note = page.getByRole("note");
  await expect(note).toContainText("Free plan: data delayed by 15 minutes.");
  await expect(note.getByRole("link", { name: "Upgrade to Pro" })).toHaveAttribute("href", "/account/plan");
  await expect(page.getByTestId("freshness")).toContainText("Delayed 15 min");
  // The seeded delayed round is 20 minutes old when seeding starts; a slow machine adds a minute or two.
  await expect(page.getByTestId("freshness")).toContainText(/\(2\d min ago\)/);

  // 5 assets × 6 pairs of 4 venues, and not LINK, which only the newest (live) round lists.
  await expect(page.getByText("Showing 1–30 of 30").first()).toBeVisible();
  await expect(rows(page)).toHaveCount(30);
  await expect(page.locator('tr[data-opportunity^="LINK-"]')).toHaveCount(0);
  const byDefault = await aprs(page);
  expect(byDefault).toEqual([...byDefault].sort((a, b) => b - a));
  // The seeded week of rounds gives every row its 1d and 7d averages.
  await expect(rows(page).first().locator("td:nth-of-type(6)")).toHaveText(/^-?\d+\.\d\d%$/);
  // Judged at the moment the delayed set stands for, its legs are fresh: the delay itself is not staleness.
  await expect(page.getByTestId("stale-leg")).toHaveCount(0);

  await page.getByLabel("Exchange").selectOption("okx");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/\/opportunities\?exchange=okx$/);
  await expect(rows(page)).toHaveCount(15);
  const legExchanges = await rows(page).evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll(".leg strong")].map((s) => s.textContent)),
  );
  expect(legExchanges).toHaveLength(15);
  for (const pair of legExchanges) expect(pair).toContain("okx");

  await page.getByRole("link", { name: /^APR/ }).click();
  await expect(page).toHaveURL(/\/opportunities\?exchange=okx&sort=apr$/);
  await expect(page.getByLabel("Sort by")).toHaveValue("apr");
  const ascending = await aprs(page);
  expect(ascending).toHaveLength(15);
  expect(ascending).toEqual([...ascending].sort((a, b) => a - b));

  const first = rows(page).first();
  const id = await first.getAttribute("data-opportunity");
  await first.getByRole("button", { name: "Chart" }).click();
  const chartRow = page.locator(`[id="history-${id}"]`);
  await expect(chartRow.getByText(/settlements/).first()).toBeVisible();
  await expect(chartRow.locator("canvas").first()).toBeVisible();
  await expect(chartRow).toContainText("up to 15 minutes ago");
  await page.screenshot({ path: "e2e-artifacts/screener-free.png", fullPage: true });

  // The venues a trader uses: rows whose two legs are both among the ticked ones.
  await page.goto("/opportunities");
  await page.locator(".venue-picker summary").click();
  await page.getByRole("checkbox", { name: "OKX" }).check();
  await page.getByRole("checkbox", { name: "Bybit" }).check();
  await page.getByRole("checkbox", { name: "Binance" }).check();
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/\/opportunities\?exchanges=binance,bybit,okx$/);
  await expect(page.locator(".venue-picker summary")).toHaveText("3 venues");
  const pairs = await rows(page).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll(".leg strong")].map((s) => s.textContent)));
  expect(pairs.length).toBeGreaterThan(0);
  for (const pair of pairs) for (const venue of pair) expect(["binance", "bybit", "okx"]).toContain(venue);

  // A value the API refuses is explained, not a crash.
  await page.goto("/opportunities?min_apr=ten&exchange=ftx");
  const problems = page.getByRole("alert").filter({ hasText: "These filters are not valid" });
  await expect(problems).toContainText("min_apr: Must be a number");
  await expect(problems).toContainText("exchange: Must be one of");
  await page.context().close();
});

test("a Pro account sees the live set; the history route serves only what the account may see", async ({ browser, playwright }) => {
  const page = await seededPage(browser);
  await signUpInBrowser(page, uniqueEmail("screener-pro"));
  await switchToPro(page);

  await page.goto("/opportunities?symbol=link");
  await expect(page.getByTestId("freshness")).toContainText("Live");
  await expect(page.getByText("Free plan: data delayed")).toHaveCount(0);
  await expect(rows(page)).toHaveCount(6);
  await expect(page.getByLabel("Symbol")).toHaveValue("link");
  // Hyperliquid's LINK numbers are five minutes older than the others' (the seed): its three pairs
  // show no price spread, and say why; the other pairs show theirs.
  const unpriced = page.locator("td .spread-unavailable");
  await expect(unpriced).toHaveCount(3);
  for (const cell of await unpriced.all()) {
    await expect(cell).toHaveText(/^—/);
    await expect(cell).toHaveAttribute(
      "title",
      /^Legs observed 5 min apart \(.*Hyperliquid \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC.*\); a spread would compare different moments\.$/,
    );
  }
  const priced = rows(page).filter({ hasNot: page.locator(".spread-unavailable") });
  await expect(priced).toHaveCount(3);
  for (const text of await priced.locator("td:nth-of-type(8)").allTextContents()) expect(text).toMatch(/^[+-]?\d+\.\d bps$/);
  // Five minutes behind is within the threshold (three of the seeded server's 5-minute intervals).
  await expect(page.getByTestId("stale-leg")).toHaveCount(0);

  const id = await rows(page).first().getAttribute("data-opportunity");
  const history = await page.request.get(`/api/opportunities/${id}/history`);
  expect(history.status()).toBe(200);
  const { data } = await history.json();
  expect(data.delayed).toBe(false);
  // LINK was first seen a minute ago: no settlement yet, and the chart says so rather than failing.
  expect(data.long.settlements).toEqual([]);
  await rows(page).first().getByRole("button", { name: "Chart" }).click();
  await expect(page.getByText("No settlements have been recorded for either leg")).toBeVisible();

  // OKX serves XRP from a refresh 19 minutes old: its leg of each of its three pairs is flagged, saying how old.
  await page.goto("/opportunities?symbol=xrp");
  await expect(rows(page)).toHaveCount(6);
  const stale = page.getByTestId("stale-leg");
  await expect(stale).toHaveCount(3);
  for (const badge of await stale.all()) {
    await expect(badge).toHaveText(/^stale/);
    await expect(badge).toHaveAttribute("title", /^OKX data (19|[2-9]\d) min old \(observed \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\); data older than 15 min is stale\.$/);
    await expect(badge.locator("xpath=ancestor::span[@class='leg']/strong")).toHaveText("okx");
  }

  // Back on Free, the live-only opportunity is out of reach by id too: the delay cannot be side-stepped.
  const downgraded = await page.request.post("/api/account/plan", { data: { tier: "free" }, headers: { Origin: seeded.base } });
  expect(downgraded.status()).toBe(200);
  const delayed = await page.request.get(`/api/opportunities/${id}/history`);
  expect(delayed.status()).toBe(404);
  expect((await delayed.json()).error.code).toBe("NOT_FOUND");

  const anonymous = await playwright.request.newContext({ baseURL: seeded.base });
  const refused = await anonymous.get(`/api/opportunities/${id}/history`);
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error.code).toBe("UNAUTHORIZED");
  await anonymous.dispose();
  await page.context().close();
});

test("a Pro account sets its own taker fee and prices the rows on screen at a size; with no venue reachable each row says why", async ({ browser }) => {
  const page = await seededPage(browser);
  await signUpInBrowser(page, uniqueEmail("screener-quotes"));
  await switchToPro(page);

  // Account → Trading settings: a fee in percent, refused when out of range, saved and charged when valid.
  await page.getByRole("link", { name: "Trading settings" }).click();
  await expect(page.getByRole("heading", { name: "Trading settings" })).toBeVisible();
  const okxFee = page.getByLabel("Your taker fee on okx, percent");
  await okxFee.fill("5");
  await page.getByRole("button", { name: "Save fees" }).click();
  await expect(page.locator("#fee-error-okx")).toBeVisible();
  await okxFee.fill("0.02");
  await page.getByRole("button", { name: "Save fees" }).click();
  await expect(page.getByRole("status")).toContainText("Fees saved");
  await page.reload();
  await expect(page.getByLabel("Your taker fee on okx, percent")).toHaveValue("0.02");
  await expect(page.getByRole("row", { name: /okx/ })).toContainText("0.02 % (yours)");

  // The screener quotes only the rows shown. This server reaches no exchange, so every quote fails
  // and each row says so instead of showing a number.
  await page.goto("/opportunities?symbol=btc");
  await expect(rows(page)).toHaveCount(6);
  await page.getByLabel("Size (USD a leg)").fill("50000");
  await page.getByRole("button", { name: "Show net APR at size" }).click();
  await expect(page.getByRole("columnheader", { name: /Net APR at \$50,?000/ })).toBeVisible({ timeout: 30_000 });
  const unavailable = rows(page).locator("span[title]", { hasText: /^n\/a$/ });
  await expect(unavailable).toHaveCount(6);
  await expect(unavailable.first()).toHaveAttribute("title", /.+/);

  const first = rows(page).first();
  const id = await first.getAttribute("data-opportunity");
  await first.getByRole("button", { name: "Quote" }).click();
  const panel = page.getByRole("region", { name: `Quote ${id}` });
  await panel.getByRole("button", { name: "Quote" }).click();
  await expect(panel.getByRole("alert")).not.toBeEmpty({ timeout: 30_000 });
  await page.context().close();
});

test("a Free account's delayed screener offers no live quotes", async ({ browser }) => {
  const page = await seededPage(browser);
  await signUpInBrowser(page, uniqueEmail("screener-free-quotes"));
  await page.goto("/opportunities");
  await expect(rows(page).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Show net APR at size" })).toHaveCount(0);
  await expect(rows(page).first().getByRole("button", { name: "Quote" })).toHaveCount(0);
  const refused = await page.request.get(`/api/opportunities/quotes?ids=${encodeURIComponent((await rows(page).first().getAttribute("data-opportunity"))!)}&notional=1000`);
  expect(refused.status()).toBe(403);
  await page.context().close();
});
