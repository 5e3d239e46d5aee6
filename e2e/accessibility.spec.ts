// Every page at a desktop (1280 px) and a phone (390 px) width, signed out and signed in (Free, Pro,
// Desk and the operator): axe's WCAG 2.1 A/AA rules with no serious or critical violation, and no
// horizontal overflow of the page itself (a table may scroll inside its own focusable box). The main pages are screenshotted at both
// widths into e2e-artifacts/screenshots/ for a person to look at.
//
// One browser context per user, signed in once; each user's pages are one test, every page and
// width checked with soft assertions so a run lists every finding, not only the first.
import { expect, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { keyOnPlan, signInRequest, signUpRequest, uniqueEmail } from "./helpers/accounts";
import { blockingViolations, pageOverflow } from "./helpers/axe";
import { OPERATOR_EMAIL } from "./helpers/e2e-env";
import { test } from "./helpers/seeded-market-server";

const WIDTHS = [1280, 390] as const;

interface Visit {
  path: string;
  /** The status the page answers with, when it is not a success (a not-found page). */
  status?: number;
  /** A screenshot's name: set on the main pages. */
  shot?: string;
  /** Waits until the page's client-rendered part (a chart, the API reference) is there. */
  ready?: (page: Page) => Promise<void>;
  /** Opens what the page shows on demand (a row's chart), to check the page again with it open; false when there is none. */
  open?: { what: string; act: (page: Page) => Promise<boolean> };
}

/** swagger-ui renders the reference after the page loads; axe must see it. */
const referenceRendered = async (page: Page) => {
  await expect(page.locator(".swagger-ui .opblock").first()).toBeVisible({ timeout: 20_000 });
};

const SIGNED_OUT: Visit[] = [
  { path: "/", shot: "home" },
  { path: "/signin", shot: "signin" },
  { path: "/signup", shot: "signup" },
  { path: "/forgot-password" },
  { path: "/reset-password" },
  { path: "/verify-email" },
  { path: "/docs", shot: "docs", ready: referenceRendered },
  { path: "/status", shot: "status" },
];

const ACCOUNT_TABS = ["api-keys", "webhooks", "alerts", "usage", "plan", "trading", "security"];

/** Lists the blocking axe violations and any horizontal overflow of `page` as it is now, at `width`. */
async function findings(page: Page, width: number): Promise<string[]> {
  const found = (await blockingViolations(page)).map((violation) => `${width}px axe ${violation}`);
  const overflow = await pageOverflow(page);
  if (overflow !== null) found.push(`${width}px ${overflow}`);
  return found;
}

/** Visits every page at both widths in `context` (one page, resized), checking each; `who` names the screenshots. */
async function checkPages(context: BrowserContext, who: string, visits: Visit[]): Promise<void> {
  const page = await context.newPage();
  for (const visit of visits) {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      const response = await page.goto(visit.path);
      if (visit.status === undefined) expect(response?.status(), `${visit.path} answers`).toBeLessThan(400);
      else expect(response?.status(), `${visit.path} answers`).toBe(visit.status);
      await page.waitForLoadState("networkidle");
      await visit.ready?.(page);
      const problems = await findings(page, width);
      expect.soft(problems, `${who} ${visit.path}: serious or critical axe violations and page overflow`).toEqual([]);
      if (visit.shot) await page.screenshot({ path: `e2e-artifacts/screenshots/${visit.shot}-${who}-${width}.png`, fullPage: true });
      if (visit.open && (await visit.open.act(page))) {
        await page.waitForLoadState("networkidle");
        const opened = await findings(page, width);
        expect.soft(opened, `${who} ${visit.path} with ${visit.open.what} open: serious or critical axe violations and page overflow`).toEqual([]);
      }
    }
  }
  await page.close();
}

/** A new context signed in as a fresh verified account on `tier`, holding an API key. */
async function signedInContext(browser: Browser, baseURL: string, label: string, tier: "pro" | "desk") {
  const context = await browser.newContext({ baseURL });
  const email = uniqueEmail(label);
  await signUpRequest(context.request, baseURL, email);
  await signInRequest(context.request, email);
  await keyOnPlan(context.request, baseURL, tier, { name: "a11y", mode: "test", permissions: ["opportunities:read"] });
  return { context, email };
}

test("signed out: every public page passes axe and fits 1280 and 390 px", async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL });
  await checkPages(context, "signed-out", SIGNED_OUT);
  await context.close();
});

test("signed in on Desk: the account area, portfolio, docs and status pass axe and fit 1280 and 390 px", async ({ browser, baseURL }) => {
  test.setTimeout(240_000);
  const { context } = await signedInContext(browser, baseURL!, "a11y-desk", "desk");
  // A webhook endpoint, so Webhooks lists one and its own page exists (nothing is delivered to it).
  const created = await context.request.post("/api/account/webhooks", {
    data: { url: "https://hooks.e2e.test/a11y", event_types: ["opportunity.opened"] },
    headers: { Origin: baseURL! },
  });
  expect(created.status(), await created.text()).toBe(201);
  const webhookId = ((await created.json()) as { data: { id: string } }).data.id;

  await checkPages(context, "desk", [
    { path: "/", shot: "home" },
    { path: "/docs", ready: referenceRendered },
    { path: "/status" },
    { path: "/portfolio", shot: "portfolio" },
    { path: "/account" },
    ...ACCOUNT_TABS.map((tab) => ({ path: `/account/${tab}`, shot: `account-${tab}` })),
    { path: `/account/webhooks/${webhookId}` },
  ]);
  await context.close();
});

test("signed in on Free: the account area as Free sees it and an opportunity's not-found page pass axe and fit 1280 and 390 px", async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL });
  const email = uniqueEmail("a11y-free");
  await signUpRequest(context.request, baseURL!, email);
  await signInRequest(context.request, email);
  await checkPages(context, "free", [
    { path: "/account" },
    ...ACCOUNT_TABS.map((tab) => ({ path: `/account/${tab}`, shot: tab === "api-keys" ? "account-api-keys" : undefined })),
    // This server holds no market data: every id is not in the set Free sees.
    { path: "/opportunities/BTC-nowhere-elsewhere", status: 404 },
  ]);
  await context.close();
});

test("the operator: /admin with a search's results passes axe and fits 1280 and 390 px", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  // Someone with a key, for the search below to list an account's keys table.
  const { context: other, email } = await signedInContext(browser, baseURL!, "a11y-searched", "pro");
  await other.close();
  const context = await browser.newContext({ baseURL });
  await signInRequest(context.request, OPERATOR_EMAIL);
  await checkPages(context, "operator", [
    { path: "/admin", shot: "admin" },
    { path: `/admin?q=${encodeURIComponent(email)}`, shot: "admin-search" },
  ]);
  await context.close();
});

test("the screener, an opportunity's page and the carry tab, on the sample market, pass axe and fit 1280 and 390 px signed out and on Pro", async ({ browser, sampleMarket }) => {
  // Eight page checks, four with a chart opened, take minutes on a busy machine.
  test.setTimeout(480_000);
  // A row's funding chart opens on demand, under the row's details (signed out, the details offer sign-in instead).
  const chartOpen = {
    what: "a row's chart",
    act: async (page: Page) => {
      await page.getByRole("button", { name: /^Details/ }).first().click();
      const chart = page.getByRole("button", { name: "Chart", exact: true }).first();
      if ((await chart.count()) === 0) return false;
      await chart.click();
      await expect(page.locator("canvas").first()).toBeVisible();
      return true;
    },
  };
  // Each checks an opportunity of the set it sees: Pro the live set, a visitor the delayed one.
  const visitsOf = async (context: BrowserContext): Promise<Visit[]> => {
    const probe = await context.newPage();
    await probe.goto("/opportunities");
    const id = await probe.locator("[data-opportunity]").first().getAttribute("data-opportunity");
    await probe.close();
    expect(id, "the sample screener lists an opportunity").toBeTruthy();
    return [
      { path: "/opportunities", shot: "screener", open: chartOpen },
      { path: `/opportunities/${encodeURIComponent(id!)}`, shot: "opportunity" },
      { path: "/carry", shot: "carry" },
    ];
  };
  const { context } = await signedInContext(browser, sampleMarket.base, "a11y-pro", "pro");
  await checkPages(context, "pro", await visitsOf(context));
  await context.close();

  const visitor = await browser.newContext({ baseURL: sampleMarket.base });
  await checkPages(visitor, "signed-out", await visitsOf(visitor));
  await visitor.close();
});
