// Sign-up signs in at once, signed-out deep links come back to the page asked for (through sign-up
// too), and a Free account lands on what its plan includes; axe on the pages this touches.
import { expect, test, type Page } from "@playwright/test";
import { PASSWORD, signUpInBrowser, signUpRequest, uniqueEmail } from "./helpers/accounts";
import { blockingViolations, pageOverflow } from "./helpers/axe";
import { planOf } from "../lib/plans";

const ACCOUNT_PAGES = ["/account/api-keys", "/account/webhooks", "/account/alerts", "/account/usage", "/account/plan", "/account/trading", "/account/security"];

async function fillSignUp(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
}

test("every signed-out account page sends to sign-in with its own path to come back to", async ({ page }) => {
  for (const path of [...ACCOUNT_PAGES, "/account/webhooks/wh_does_not_exist"]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(`/signin?callbackUrl=${encodeURIComponent(path)}`);
  }
});

test("a deep link signed out comes back to /account/webhooks after sign-in", async ({ page, playwright, baseURL }) => {
  const email = uniqueEmail("deeplink");
  const setup = await playwright.request.newContext({ baseURL });
  await signUpRequest(setup, baseURL!, email);
  await setup.dispose();
  await page.goto("/account/webhooks");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/account\/webhooks$/);
  await expect(page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Webhooks" })).toHaveAttribute("aria-current", "page");
});

test("sign-up from a deep link signs in at once and lands on the page asked for, unverified", async ({ page }) => {
  const email = uniqueEmail("straight-in");
  await page.goto("/account/webhooks");
  await page.getByRole("link", { name: "Create one" }).click();
  await expect(page).toHaveURL("/signup?callbackUrl=%2Faccount%2Fwebhooks");
  await expect(page.getByRole("link", { name: "Sign in" }).last()).toHaveAttribute("href", "/signin?callbackUrl=%2Faccount%2Fwebhooks");
  await fillSignUp(page, email);
  await expect(page).toHaveURL(/\/account\/webhooks$/);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  // Free has no API keys at all, so the notice offers no test keys.
  const notice = page.getByRole("region", { name: "Verify your e-mail" });
  await expect(notice).toContainText(`Follow the link we sent to ${email}`);
  await expect(notice).not.toContainText("test keys");
});

test("sign-up with an address that has an account, and another password, shows the usual answer and signs nobody in", async ({ page, playwright, baseURL }) => {
  const email = uniqueEmail("taken");
  const setup = await playwright.request.newContext({ baseURL });
  await signUpRequest(setup, baseURL!, email);
  await setup.dispose();
  await page.goto("/signup");
  await fillSignUp(page, email, "another long passphrase here");
  await expect(page.getByRole("status")).toContainText("Check your inbox to verify your address, then sign in.");
  await expect(page).toHaveURL(/\/signup$/);
  expect(await (await page.request.get("/api/auth/session")).json()).toEqual({});
});

test("a Free account lands on what Free includes, with the upgrade second", async ({ page }) => {
  const free = planOf("free");
  await signUpInBrowser(page, uniqueEmail("free-landing"));
  const guide = page.getByRole("region", { name: `What you can do on ${free.name}` });
  await expect(guide).toContainText(`data delayed ${free.dataDelayMinutes} minutes`);
  await expect(guide.getByRole("link", { name: "Open the screener" })).toHaveAttribute("href", "/opportunities");
  await expect(guide.getByRole("link", { name: "change your plan" })).toHaveAttribute("href", "/account/plan");
  await expect(guide).toContainText(`Pro $${planOf("pro").price!.usdPerMonth} / month`);
  // The guide comes before the keys' upgrade notice.
  const guideTop = (await guide.boundingBox())!.y;
  const keysTop = (await page.getByRole("heading", { name: "API Keys", exact: true }).boundingBox())!.y;
  expect(guideTop).toBeLessThan(keysTop);
  await expect(page.getByRole("button", { name: "Create New Key" })).toHaveCount(0);
});

test("axe finds nothing serious on the home, sign-up, sign-in and Free account pages at 1280 and 390 px", async ({ page }) => {
  const check = async (paths: string[]) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of paths) {
        await page.goto(path);
        expect(await blockingViolations(page), `${path} at ${width} px`).toEqual([]);
        expect(await pageOverflow(page), `${path} at ${width} px scrolls sideways`).toBeNull();
      }
    }
  };
  await check(["/", "/signup", "/signin?callbackUrl=%2Faccount%2Fwebhooks"]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUpInBrowser(page, uniqueEmail("axe"));
  await check(["/", "/account/api-keys", "/account/plan"]);
});
