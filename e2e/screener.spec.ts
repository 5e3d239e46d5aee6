// The screener at /opportunities against a server whose data directory was seeded with a week of
// rounds through the real ingestion pipeline (e2e/helpers/seed-screener-market.ts):
// four venues, five assets in every round, LINK only in the newest round (a minute old), so the
// Free plan's 15-minute delay is visible as a set without LINK.
import { expect, type Browser, type Page } from "@playwright/test";
import { PASSWORD, signUpInBrowser, signUpRequest, uniqueEmail, switchToPro } from "./helpers/accounts";
import { blockingViolations, pageOverflow } from "./helpers/axe";
import { seededMarketServerForFile, test } from "./helpers/seeded-market-server";

test.describe.configure({ mode: "serial" });

const seeded = seededMarketServerForFile("screener");

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function seededPage(browser: Browser, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ baseURL: seeded.base, viewport });
  return context.newPage();
}

const rows = (page: Page) => page.locator("table[aria-label=Opportunities] tbody tr[data-opportunity]");

/** Each row's APR column as a number. */
async function aprs(page: Page): Promise<number[]> {
  const texts = await rows(page).locator("td[data-col=apr]").allTextContents();
  return texts.map((t) => Number.parseFloat(t));
}

/** A row's details (its other fields and its actions), opened with its toggle. */
async function openDetails(page: Page, index = 0) {
  const row = rows(page).nth(index);
  const id = (await row.getAttribute("data-opportunity"))!;
  await row.getByRole("button", { name: /^Details of / }).click();
  const details = page.locator(`[id="details-${id}"]`);
  await expect(details).toBeVisible();
  return { id, details };
}

/** The page's width and the table's, measured in this browser: the page must not scroll sideways, nor the table be wider than the window. */
async function expectNoHorizontalScroll(page: Page, label: string) {
  const measured = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
    table: Math.round(document.querySelector("table[aria-label=Opportunities]")?.getBoundingClientRect().width ?? 0),
  }));
  // The figures for the note; the assertions are what guard them.
  console.log(`screener width, ${label}: table ${measured.table} px, page ${measured.page} px, window ${measured.viewport} px`);
  expect(await pageOverflow(page)).toBeNull();
  expect(measured.table).toBeLessThanOrEqual(measured.viewport);
}

test("signed-out visitors see the public screener and sign in to come back to it with their filters", async ({ page, baseURL }) => {
  await page.goto("/opportunities?exchange=okx");
  await expect(page.getByRole("heading", { name: "Opportunity screener" })).toBeVisible();
  const note = page.getByRole("note");
  await expect(note).toContainText("Signed out: the Free plan's view, data delayed by 15 minutes.");
  // Both links come back to the filtered screener.
  await expect(note.getByRole("link", { name: "Sign up free" })).toHaveAttribute("href", "/signup?callbackUrl=%2Fopportunities%3Fexchange%3Dokx");
  // This server never ran a round nor loaded the sample (INGEST_DISABLED): it says so.
  await expect(page.getByText("No opportunities yet")).toBeVisible();
  await note.getByRole("link", { name: "sign in" }).click();
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fopportunities%3Fexchange%3Dokx$/);
  const email = uniqueEmail("screener-return");
  await signUpRequest(page.request, baseURL!, email);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/opportunities\?exchange=okx$/);
  await expect(page.getByLabel("Exchange")).toHaveValue("okx");
  await expect(page.getByText("Signed out")).toHaveCount(0);
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
  // The seeded week of rounds gives every row its 1d and 7d averages (the 1d one under Details by default).
  await expect(rows(page).first().locator("td[data-col=apr_7d]")).toHaveText(/^-?\d+\.\d\d%$/);
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

  const { id, details } = await openDetails(page);
  await expect(details).toContainText(/1d \/ 7d avg APR-?\d+\.\d\d% \/ -?\d+\.\d\d%/);
  await details.getByRole("button", { name: "Chart" }).click();
  const chartRow = page.locator(`[id="history-${id}"]`);
  await expect(chartRow.getByText(/settlements/).first()).toBeVisible();
  await expect(chartRow.locator("canvas").first()).toBeVisible();
  await expect(chartRow).toContainText("up to 15 minutes ago");
  // The chart is an image to assistive technology, with nothing focusable inside it.
  expect(await blockingViolations(page)).toEqual([]);
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
  for (const text of await priced.locator("td[data-col=spread]").allTextContents()) expect(text).toMatch(/^[+-]?\d+\.\d bps$/);
  // Five minutes behind is within the threshold (three of the seeded server's 5-minute intervals).
  await expect(page.getByTestId("stale-leg")).toHaveCount(0);

  const id = await rows(page).first().getAttribute("data-opportunity");
  const history = await page.request.get(`/api/opportunities/${id}/history`);
  expect(history.status()).toBe(200);
  const { data } = await history.json();
  expect(data.delayed).toBe(false);
  // LINK was first seen a minute ago: no settlement yet, and the chart says so rather than failing.
  expect(data.long.settlements).toEqual([]);
  const { details } = await openDetails(page);
  await details.getByRole("button", { name: "Chart" }).click();
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
  await expectNoHorizontalScroll(page, "1280 px Pro, net APR at a size added");
  // The size goes with a row to its page, whose quote opens at it.
  await expect(rows(page).first().locator("th a")).toHaveAttribute("href", /\?size=50000$/);
  const unavailable = rows(page).locator("span[title]", { hasText: /^n\/a$/ });
  await expect(unavailable).toHaveCount(6);
  await expect(unavailable.first()).toHaveAttribute("title", /.+/);

  const { id, details } = await openDetails(page);
  await details.getByRole("button", { name: "Quote" }).click();
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
  const { details } = await openDetails(page);
  await expect(details.getByRole("button", { name: "Chart" })).toBeVisible();
  await expect(details.getByRole("button", { name: "Quote" })).toHaveCount(0);
  await expect(details.getByRole("button", { name: "Simulate" })).toHaveCount(0);
  const refused = await page.request.get(`/api/opportunities/quotes?ids=${encodeURIComponent((await rows(page).first().getAttribute("data-opportunity"))!)}&notional=1000`);
  expect(refused.status()).toBe(403);
  await page.context().close();
});

test("signed out, the delayed screener fits 1280 px: shaded figures, a sticky header, rows linking to their page, sign-in for actions, no axe violation", async ({ browser }) => {
  const page = await seededPage(browser);
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Screener" }).click();
  await expect(page).toHaveURL(/\/opportunities$/);
  await expect(page.getByRole("note")).toContainText("Signed out: the Free plan's view, data delayed by 15 minutes.");
  await expect(page.getByTestId("freshness")).toContainText("Delayed 15 min");
  // The Free plan's set: no LINK, which only the live round lists.
  await expect(rows(page)).toHaveCount(30);
  await expect(page.locator('tr[data-opportunity^="LINK-"]')).toHaveCount(0);
  await expectNoHorizontalScroll(page, "1280 px signed out");
  const first = rows(page).first();
  const toggle = await first.getByRole("button", { name: /^Details of / }).boundingBox();
  expect(toggle!.x + toggle!.width).toBeLessThanOrEqual(DESKTOP.width);

  const id = (await first.getAttribute("data-opportunity"))!;
  await expect(first.locator("th a")).toHaveAttribute("href", `/opportunities/${encodeURIComponent(id)}`);
  // The colour scale: every APR and net APR cell shaded, the number still there.
  await expect(page.locator("td[data-col=apr][data-shade]")).toHaveCount(30);
  await expect(page.locator("td[data-col=net_apr][data-shade]")).toHaveCount(30);
  await expect(first.locator("td[data-col=apr]")).toHaveText(/^-?\d+\.\d\d%$/);
  const positive = page.locator('td[data-col=apr][data-shade^="pos"]').first();
  expect(await positive.evaluate((td) => getComputedStyle(td).backgroundColor)).not.toBe("rgba(0, 0, 0, 0)");

  // One pager landmark, below the table.
  await expect(page.getByRole("navigation", { name: "Pages" })).toHaveCount(1);
  const { details } = await openDetails(page);
  await expect(details.getByRole("button", { name: "Chart" })).toHaveCount(0);
  await expect(details.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/signin?callbackUrl=%2Fopportunities");
  await expect(details.getByRole("link", { name: /page$/ })).toHaveAttribute("href", `/opportunities/${encodeURIComponent(id)}`);
  expect(await blockingViolations(page)).toEqual([]);
  await page.screenshot({ path: "e2e-artifacts/screener-signed-out-1280.png" });

  // The header stays at the window's top as the rows scroll under it.
  await page.evaluate(() => window.scrollTo(0, 900));
  const headTop = await page.locator("table[aria-label=Opportunities] thead th").first().evaluate((th) => th.getBoundingClientRect().top);
  expect(Math.abs(headTop)).toBeLessThanOrEqual(1);
  await page.context().close();
});

test("on a 390 px phone: symbol, APR and net APR visible, no sideways scroll, filters folded and the venue list inside the screen, no axe violation", async ({ browser }) => {
  const page = await seededPage(browser, PHONE);
  await page.goto("/opportunities");
  await expect(rows(page)).toHaveCount(30);
  await expectNoHorizontalScroll(page, "390 px signed out");
  const first = rows(page).first();
  await expect(first.locator("th a")).toBeVisible();
  for (const column of ["apr", "net_apr"]) {
    const cell = first.locator(`td[data-col=${column}]`);
    await expect(cell).toBeVisible();
    const box = await cell.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
  }
  // The legs give way to a line under the symbol.
  await expect(first.locator("td[data-col=long]")).toBeHidden();
  await expect(first.locator("th")).toContainText("→");

  await expect(page.getByLabel("Exchange")).toBeHidden();
  await page.locator("summary", { hasText: /^Filters/ }).click();
  await expect(page.getByLabel("Exchange")).toBeVisible();
  await page.locator(".venue-picker summary").click();
  await expect(page.getByRole("checkbox", { name: "OKX" })).toBeVisible();
  await expectNoHorizontalScroll(page, "390 px, venue list open");
  expect(await blockingViolations(page)).toEqual([]);

  await openDetails(page);
  await expectNoHorizontalScroll(page, "390 px, a row's details open");
  expect(await blockingViolations(page)).toEqual([]);
  await page.screenshot({ path: "e2e-artifacts/screener-signed-out-390.png" });
  await page.context().close();
});

test("a Pro account's saved filters, columns and density survive a reload; rows move with the keyboard; no axe violation at 1280 or 390 px", async ({ browser }) => {
  const page = await seededPage(browser);
  await signUpInBrowser(page, uniqueEmail("screener-prefs"));
  await switchToPro(page);
  await page.goto("/opportunities?symbol=btc");
  await expect(rows(page)).toHaveCount(6);
  await expectNoHorizontalScroll(page, "1280 px Pro");
  expect(await blockingViolations(page)).toEqual([]);

  await page.getByRole("button", { name: "Save filters" }).click();
  await expect(page.getByTestId("saved-filters")).toContainText("symbol=btc");
  // The count is of the columns the table shows, its details toggle aside.
  const headings = await page.locator("table[aria-label=Opportunities] thead th").count();
  await expect(page.locator("summary", { hasText: /^Columns/ })).toHaveText(`Columns (${headings - 1} shown)`);
  await page.locator("summary", { hasText: /^Columns/ }).click();
  await page.getByRole("checkbox", { name: "1d avg APR" }).check();
  await page.getByRole("checkbox", { name: "Volume 24h" }).uncheck();
  await expect(rows(page).first().locator("td[data-col=apr_1d]")).toBeVisible();
  await page.getByRole("button", { name: "Compact rows" }).click();

  // A bare /opportunities (the header's link) opens with the saved filters, and a reload keeps every choice.
  await page.goto("/opportunities");
  await expect(page).toHaveURL(/\/opportunities\?symbol=btc$/);
  await page.reload();
  await expect(rows(page)).toHaveCount(6);
  await expect(rows(page).first().locator("td[data-col=apr_1d]")).toHaveText(/^-?\d+\.\d\d%$/);
  await expect(rows(page).first().locator("td[data-col=volume]")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Compact rows" })).toHaveAttribute("aria-pressed", "true");
  await expectNoHorizontalScroll(page, "1280 px Pro, 1d column added");

  // "Clear" shows every opportunity once, the saved filters kept until forgotten.
  await page.getByRole("link", { name: "Clear" }).click();
  await expect(page).toHaveURL(/\/opportunities$/);
  await expect(rows(page)).toHaveCount(36);
  await expect(page.getByTestId("saved-filters")).toContainText("symbol=btc");
  await page.getByRole("button", { name: "Forget saved filters" }).click();
  await expect(page.getByTestId("saved-filters")).toHaveCount(0);

  // Rows take the focus in turn: j/k and the arrows, Home and End; Space opens the details, Enter the page.
  await page.goto("/opportunities?symbol=eth");
  await expect(rows(page)).toHaveCount(6);
  await rows(page).first().focus();
  await page.keyboard.press("j");
  await expect(rows(page).nth(1)).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(rows(page).nth(2)).toBeFocused();
  await page.keyboard.press("k");
  await expect(rows(page).nth(1)).toBeFocused();
  await page.keyboard.press("End");
  await expect(rows(page).nth(5)).toBeFocused();
  await page.keyboard.press("Home");
  await expect(rows(page).first()).toBeFocused();
  await expect(rows(page).first()).toHaveAttribute("tabindex", "0");
  await expect(rows(page).nth(1)).toHaveAttribute("tabindex", "-1");
  await page.keyboard.press(" ");
  const id = (await rows(page).first().getAttribute("data-opportunity"))!;
  await expect(page.locator(`[id="details-${id}"]`)).toBeVisible();
  expect(await blockingViolations(page)).toEqual([]);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/opportunities/${encodeURIComponent(id).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));

  await page.setViewportSize(PHONE);
  await page.goto("/opportunities?symbol=eth");
  await expect(rows(page)).toHaveCount(6);
  await expectNoHorizontalScroll(page, "390 px Pro");
  expect(await blockingViolations(page)).toEqual([]);
  await page.context().close();
});

test("every row of the bundled offline sample is marked as sample data", async ({ browser, sampleMarket }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: sampleMarket.base, viewport: DESKTOP });
  const page = await context.newPage();
  await page.goto("/opportunities?limit=100");
  await expect(page.getByTestId("freshness")).toContainText("Sample data (bundled snapshot, not live)");
  await expect(rows(page)).toHaveCount(100);
  await expect(page.getByTestId("sample-row")).toHaveCount(100);
  await expect(rows(page).filter({ hasNot: page.getByTestId("sample-row") })).toHaveCount(0);
  // The sample's recorded history gives pairs their persistence, shaded on its own scale, which a legend explains.
  expect(await page.locator("td[data-col=persistence][data-shade]").count()).toBeGreaterThan(0);
  await expect(page.getByText("Persistence shading (settlements that paid, 7 days):")).toBeVisible();
  // The sample names every venue, the longest names among them.
  await expectNoHorizontalScroll(page, "1280 px, the sample");
  expect(await blockingViolations(page)).toEqual([]);
  await page.screenshot({ path: "e2e-artifacts/screener-sample-1280.png" });
  await context.close();
});
