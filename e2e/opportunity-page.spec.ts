// The page of one opportunity, /opportunities/<id>, against a server whose data directory holds the
// offline sample as a fresh install publishes it (e2e/helpers/seed-sample-market.ts): recorded order
// books make BTC quotes work offline, and one BTC pair's 8-hour leg settles every 4 hours for a day
// of its last week (seen in its settlements), then goes back to 8 hours (a stored change).
import { expect, type Browser, type Page } from "@playwright/test";
import { PASSWORD, signUpInBrowser, signUpRequest, switchToPro, uniqueEmail } from "./helpers/accounts";
import { blockingViolations, pageOverflow } from "./helpers/axe";
import { test, type SamplePair } from "./helpers/seeded-market-server";

test.describe.configure({ mode: "serial" });

let base = "";
let seeded: SamplePair;

test.beforeAll(({ sampleMarket }) => {
  base = sampleMarket.base;
  seeded = sampleMarket.pair;
});

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: base });
  return context.newPage();
}

const pagePath = () => `/opportunities/${seeded.id}`;
const utcMinute = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

/** axe's WCAG 2.1 A/AA rules at a width: no serious or critical violation, and no sideways page scroll; a screenshot of the first screen. */
async function expectAccessible(page: Page, width: number, name: string) {
  await page.setViewportSize({ width, height: 900 });
  await expect(page.getByTestId("history-chart").locator("canvas").first()).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `e2e-artifacts/opportunity-${name}-${width}.png` });
  expect(await blockingViolations(page)).toEqual([]);
  expect(await pageOverflow(page)).toBeNull();
}

test("a visitor sees the pair's legs with their ages, persistence, history with its interval changes, and the API call, delayed and marked as sample", async ({ browser }) => {
  const page = await newPage(browser);
  const response = await page.goto(pagePath());
  expect(response?.status()).toBe(200);
  const [symbol, long, short] = seeded.id.split("-");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${symbol}: long ${long}, short ${short}`);
  await expect(page.getByTestId("freshness")).toContainText("Sample data (bundled snapshot, not live)");

  // Signed out: the Free plan's delay, stated, and sign-in links that come back here instead of the actions.
  const delay = page.getByTestId("delay-note");
  await expect(delay).toContainText("Signed out: the Free plan's view, data delayed by 15 minutes.");
  const back = `/signin?callbackUrl=${encodeURIComponent(pagePath())}`;
  await expect(delay.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", back);
  await expect(page.getByTestId("actions-sign-in").getByRole("link", { name: "Sign in" })).toHaveAttribute("href", back);
  await expect(page.getByRole("button", { name: "Quote" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Run simulation" })).toHaveCount(0);

  // Both legs, a row per field, each with its age; the observation row with age, transport and the stale flag.
  const legs = page.getByRole("table", { name: /Both legs: every field the API gives/ });
  await expect(legs.getByRole("columnheader")).toHaveText(["Field", `Long: ${long}`, `Short: ${short}`]);
  for (const field of ["Market", "Funding rate", "Rate per hour", "Funding interval", "Venue's forecast", "Next funding", "Last settled rate", "Rate cap", "Mark price", "Open interest", "Volume 24h", "Reached the service by"]) {
    await expect(legs.getByRole("rowheader", { name: field, exact: true })).toBeVisible();
  }
  // The sample's recordings are years old: every leg is that old, flagged stale and saying why.
  await expect(page.getByTestId("age-long")).toHaveText(/^\d+ days old · (poll|stream)$/);
  await expect(page.getByTestId("age-short")).toHaveText(/^\d+ days old · (poll|stream)$/);
  await expect(legs.getByTestId("stale-leg")).toHaveCount(2);
  await expect(legs.locator('tr[data-field="funding_rate"] td').first()).toContainText(/\d+ days old$/);

  await expect(page.getByTestId("persistence")).toContainText("Median APR, 7 days");

  // The chart, its text alternative, and the changed leg's two interval changes marked and listed.
  await expect(page.getByTestId("history-chart").locator("canvas").first()).toBeVisible();
  const changes = page.getByTestId("interval-changes");
  await expect(changes.getByRole("listitem")).toHaveText([
    new RegExp(`^${seeded.leg} .*: 8h → 4h from ${utcMinute(seeded.shortened)} \\(seen in the settlements\\)$`),
    new RegExp(`^${seeded.leg} .*: 4h → 8h from ${utcMinute(seeded.restored)} \\(read from venue\\)$`),
  ]);
  await expect(page.getByRole("img", { name: new RegExp(`^Funding history of ${seeded.id}: Long ${long}: \\d+ settlements .*, 2 interval changes\\.`) })).toBeVisible();
  await page.getByText("The settlements as tables").click();
  await expect(page.getByRole("table", { name: new RegExp(`leg: ${seeded.leg}`) }).getByRole("cell", { name: "sample" }).first()).toBeVisible();

  // The same in the API.
  await expect(page.getByRole("link", { name: "GET /v1/opportunities/{id}" })).toHaveAttribute("href", "/docs#reference");
  await expect(page.getByTestId("curl")).toContainText(`/v1/opportunities/${seeded.id}" -H "Authorization: Bearer $FUNDING_DATA_API_KEY"`);

  await expectAccessible(page, 1280, "signed-out");
  await expectAccessible(page, 390, "signed-out");

  // Signing in from the page comes back to it; a Free account is led to what the actions need.
  const email = uniqueEmail("opportunity-free");
  await signUpRequest(page.request, base, email);
  await page.getByTestId("actions-sign-in").getByRole("link", { name: "Sign in" }).click();
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`${pagePath()}$`));
  await expect(page.getByTestId("delay-note")).toContainText("Free plan: data delayed by 15 minutes.");
  await expect(page.getByTestId("actions-upgrade").getByRole("link", { name: "Upgrade your plan" })).toHaveAttribute("href", "/account/plan");
  await page.context().close();
});

test("an id not in the set is a 404 that leads back to the screener", async ({ browser }) => {
  const page = await newPage(browser);
  const response = await page.goto("/opportunities/NOPE-binance-bybit");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Opportunity not found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to the screener" })).toHaveAttribute("href", "/opportunities");
  await page.context().close();
});

test("a Pro account quotes the pair at its size, simulates it and adds it to the portfolio", async ({ browser }) => {
  const page = await newPage(browser);
  await signUpInBrowser(page, uniqueEmail("opportunity-pro"));
  await switchToPro(page);
  await page.goto(`${pagePath()}?size=25000`);
  await expect(page.getByTestId("delay-note")).toHaveCount(0);

  const quote = page.getByRole("region", { name: `Quote ${seeded.id}` });
  await expect(quote.getByLabel("Notional (USD a leg)")).toHaveValue("25000");
  await quote.getByLabel("Notional (USD a leg)").fill("5000");
  await quote.getByRole("button", { name: "Quote" }).click();
  const figures = quote.getByTestId("quote-figures");
  await expect(figures).toBeVisible({ timeout: 30_000 });
  // The sample's recorded books are excerpts of a few levels: the quote is of what they fill.
  await expect(figures.getByRole("table", { name: /^Each leg at \$[\d,.]+, held 72 h$/ }).getByRole("row")).toHaveCount(3);
  await expect(quote.getByTestId("quote-net")).toHaveText(/^[+−]?\$[\d,.]+ · (-?\d+\.\d\d%|—)$/);

  const simulate = page.getByRole("region", { name: `Simulate ${seeded.id}` });
  await simulate.getByRole("button", { name: "Run simulation" }).click();
  await expect(simulate.getByTestId("simulation-result")).toContainText("Net P&L");
  // A replay of the sample's recorded settlements, drawn day by day.
  await simulate.getByLabel("Mode").selectOption("historical");
  await simulate.getByRole("button", { name: "Run simulation" }).click();
  await expect(simulate.getByTestId("simulation-result")).toContainText(/Replay of the last 7 days' recorded settlements \(\d+ in all\)/);
  await expect(simulate.getByRole("img", { name: `Daily cumulative P&L of ${seeded.id}` })).toBeVisible();
  await expect(simulate.locator("canvas").first()).toBeVisible();

  const add = page.getByRole("region", { name: `Add ${seeded.id} to portfolio` });
  await add.getByLabel("Note (optional)").fill("from the opportunity page");
  await add.getByRole("button", { name: "Add position" }).click();
  await expect(page.getByRole("status").filter({ hasText: "to your portfolio" })).toContainText(`Added BTC (long ${seeded.id.split("-")[1]}`);

  await expectAccessible(page, 1280, "pro");
  await expectAccessible(page, 390, "pro");
  await page.context().close();
});
