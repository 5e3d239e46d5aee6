import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { keyOnPlan, PASSWORD, signInRequest, signUpRequest, uniqueEmail, waitForMail } from "./helpers/accounts";
import { OPERATOR_EMAIL } from "./helpers/e2e-env";

// playwright.config.ts creates OPERATOR_EMAIL's account, verified, and runs `npm run admin -- grant`
// on it before the server starts: the only way anyone becomes an operator.

/** Signs up, verifies the address and signs in; returns the new account's id as its session names it. */
async function signUp(request: APIRequestContext, baseURL: string, email: string): Promise<string> {
  await signUpRequest(request, baseURL, email);
  await signInRequest(request, email);
  return ((await (await request.get("/api/auth/session")).json()) as { user: { id: string } }).user.id;
}

/** Operator-only answers, all of which must be the ordinary 404 for anyone else. */
async function expectNoOperatorRights(page: Page, baseURL: string, userId: string) {
  expect(await notFoundText(page, "/admin")).toBe(await notFoundText(page, "/no-such-page-here"));
  const headers = { Origin: baseURL };
  for (const attempt of [
    page.request.get(`/api/admin/users?q=${encodeURIComponent("@")}`),
    page.request.post(`/api/admin/users/${userId}/tier`, { data: { tier: "desk" }, headers }),
  ]) {
    const response = await attempt;
    expect(response.status()).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
  }
}

/** What a 404 page says, to compare the console's refusal with an address that never existed. */
async function notFoundText(page: Page, path: string): Promise<string> {
  const response = await page.goto(path);
  expect(response?.status()).toBe(404);
  return (await page.locator("main").innerText()).trim();
}

test("/admin is the ordinary 404 for signed-out visitors and for signed-in users who are not operators", async ({ page, baseURL }) => {
  const ordinary = await notFoundText(page, "/no-such-page-here");
  expect(ordinary).toContain("404");
  expect(await notFoundText(page, "/admin")).toBe(ordinary);
  expect(await page.content()).not.toContain("Operator console");

  // page.request shares the browser's cookies, so this signs the page in too.
  const email = uniqueEmail("not-an-operator");
  const userId = await signUp(page.request, baseURL!, email);
  expect(await notFoundText(page, "/admin")).toBe(await notFoundText(page, "/no-such-page-here"));
  expect(await page.content()).not.toContain("Operator console");

  const headers = { Origin: baseURL! };
  const keyId = (await keyOnPlan(page.request, baseURL!, "pro", { name: "mine", mode: "live", permissions: ["opportunities:read"] })).view.id;

  for (const attempt of [
    page.request.get(`/api/admin/users?q=${encodeURIComponent(email)}`),
    page.request.post(`/api/admin/users/${userId}/tier`, { data: { tier: "desk" }, headers }),
    page.request.post(`/api/admin/keys/${keyId}/revoke`, { data: {}, headers }),
  ]) {
    const response = await attempt;
    expect(response.status()).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
  }
  // Nothing the refused requests asked for happened.
  await page.goto("/account/plan");
  await expect(page.getByRole("heading", { name: "Current plan: Pro" })).toBeVisible();
  const keys = (await (await page.request.get("/api/account/keys")).json()) as { data: { items: { id: string; status: string }[] } };
  expect(keys.data.items).toEqual([expect.objectContaining({ id: keyId, status: "active" })]);
});

test("the operator finds a user by part of their e-mail, changes their tier and revokes their key", async ({ page, playwright, baseURL }) => {
  const trader = await playwright.request.newContext({ baseURL });
  const traderEmail = uniqueEmail("console-trader");
  await signUp(trader, baseURL!, traderEmail);
  const { view } = await keyOnPlan(trader, baseURL!, "pro", { name: "desk bot", mode: "live", permissions: ["opportunities:read", "portfolio:read"] });

  await signInRequest(page.request, OPERATOR_EMAIL);
  const consolePage = await page.goto("/admin");
  expect(consolePage?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Operator console" })).toBeVisible();
  await expect(page.getByRole("row", { name: /^Pro/ })).toBeVisible();

  // Any part of the address, in any case.
  const fragment = traderEmail.split("@")[0]!.slice("console-".length).toUpperCase();
  await page.getByLabel("E-mail contains").fill(fragment);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/admin\?q=/);
  const account = page.getByRole("region", { name: traderEmail });
  await expect(account).toContainText("Plan: Pro");
  const keyRow = account.getByRole("row", { name: /desk bot/ });
  await expect(keyRow).toContainText(view.prefix);
  await expect(keyRow).toContainText("live");
  await expect(keyRow).toContainText("Active");

  await account.getByLabel(`Tier for ${traderEmail}`).selectOption("desk");
  await account.getByRole("button", { name: "Change tier" }).click();
  await expect(account.getByRole("status")).toHaveText(`${traderEmail} is now on Desk.`);
  await expect(account).toContainText("Plan: Desk");
  const found = (await (await page.request.get(`/api/admin/users?q=${encodeURIComponent(traderEmail)}`)).json()) as {
    data: { items: { email: string; tier: string }[] };
  };
  expect(found.data.items).toEqual([expect.objectContaining({ email: traderEmail, tier: "desk" })]);

  // Declining the confirmation leaves the key alone; accepting revokes it.
  page.once("dialog", (dialog) => void dialog.dismiss());
  await keyRow.getByRole("button", { name: "Revoke" }).click();
  await expect(keyRow).toContainText("Active");
  let question = "";
  page.once("dialog", (dialog) => {
    question = dialog.message();
    void dialog.accept();
  });
  await keyRow.getByRole("button", { name: "Revoke" }).click();
  await expect(keyRow).toContainText("Revoked");
  await expect(keyRow.getByRole("button", { name: "Revoke" })).toHaveCount(0);
  await page.screenshot({ path: "e2e-artifacts/operator-console.png", fullPage: true });
  expect(question).toContain(traderEmail);
  expect(question).toContain("cannot be undone");

  const traderKeys = (await (await trader.get("/api/account/keys")).json()) as { data: { items: { id: string; status: string }[] } };
  expect(traderKeys.data.items).toEqual([expect.objectContaining({ id: view.id, status: "revoked" })]);

  // Both actions are in the operator's own trail, naming whose account they touched.
  await page.goto("/account/security");
  const trail = page.getByRole("region", { name: "Account activity" }).getByRole("table");
  await expect(trail.getByRole("row", { name: /Plan changed/ }).first()).toContainText(`${traderEmail}: Pro → Desk`);
  await expect(trail.getByRole("row", { name: /API key revoked/ }).first()).toContainText(`“desk bot” ${view.prefix} of ${traderEmail}`);
  await page.screenshot({ path: "e2e-artifacts/operator-console-security.png", fullPage: true });
  await trader.dispose();
});

test("the plan page switches tiers at once and asks before a downgrade, saying what keys lose", async ({ page, baseURL }) => {
  const email = uniqueEmail("planner");
  await signUp(page.request, baseURL!, email);
  await page.goto("/account/plan");
  await expect(page.getByRole("heading", { name: "Current plan: Free" })).toBeVisible();
  await expect(page.getByText("Demo billing: plan changes apply immediately and nothing is charged.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Switch to Free" })).toHaveCount(0);

  await page.getByRole("button", { name: "Switch to Desk" }).click();
  await expect(page.getByRole("heading", { name: "Current plan: Desk" })).toBeVisible();
  await expect(page.getByRole("status")).toHaveText("You are now on the Desk plan.");
  await expect(page.getByRole("button", { name: /^Switch to/ })).toHaveText(["Switch to Free", "Switch to Pro"]);

  await page.getByRole("button", { name: "Switch to Pro" }).click();
  const dialog = page.getByRole("dialog", { name: "Downgrade to Pro?" });
  await expect(dialog).toContainText("lose at once the permissions the Pro plan lacks: Write operations");
  await page.screenshot({ path: "e2e-artifacts/plan-downgrade-dialog.png", fullPage: true });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Current plan: Desk" })).toBeVisible();

  await page.getByRole("button", { name: "Switch to Free" }).click();
  const toFree = page.getByRole("dialog", { name: "Downgrade to Free?" });
  await expect(toFree).toContainText("no API access");
  await toFree.getByRole("button", { name: "Downgrade to Free" }).click();
  await expect(page.getByRole("heading", { name: "Current plan: Free" })).toBeVisible();

  const refused = await page.request.post("/api/account/plan", { data: { tier: "enterprise" }, headers: { Origin: baseURL! } });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).error).toMatchObject({
    code: "VALIDATION_ERROR",
    details: [{ field: "tier", message: "Tier must be one of free, pro or desk" }],
  });

  await page.goto("/account/security");
  const actions = await page.getByRole("region", { name: "Account activity" }).getByRole("table").locator("tbody tr td:nth-child(2)").allInnerTexts();
  expect(actions).toEqual(["Plan changed", "Plan changed", "Signed in", "E-mail address verified", "Account created"]);
  await expect(page.getByRole("row", { name: /Plan changed/ }).first()).toContainText("Desk → Free");
});

test("signing up, in any letter case, with an address an operator list would name gives no operator rights", async ({ page, playwright, baseURL }) => {
  // New accounts at addresses ADMIN_EMAILS-style lists held, verified and signed in: ordinary users.
  for (const email of [`Admin-${Date.now().toString(36)}@E2E.test`, `ROOT-${Date.now().toString(36)}@e2e.TEST`]) {
    const context = await playwright.request.newContext({ baseURL });
    const userId = await signUp(context, baseURL!, email.toLowerCase());
    const cookies = (await context.storageState()).cookies;
    await page.context().clearCookies();
    await page.context().addCookies(cookies);
    await expectNoOperatorRights(page, baseURL!, userId);
    await context.dispose();
  }

  // The operator's own address in another case is the same, taken, address: the same answer as a new
  // one, no account and no rights for whoever tried, and the operator is told by e-mail.
  const impostor = await playwright.request.newContext({ baseURL });
  const response = await impostor.post("/api/account/signup", {
    data: { email: OPERATOR_EMAIL.toUpperCase(), password: "impostor wants the console" },
    headers: { Origin: baseURL! },
  });
  expect(response.status()).toBe(202);
  expect((await response.json()).data).toEqual({ message: "Check your inbox to verify your address, then sign in.", delivery: "smtp" });
  await waitForMail(OPERATOR_EMAIL, /Someone tried to sign up/);
  const { csrfToken } = (await (await impostor.get("/api/auth/csrf")).json()) as { csrfToken: string };
  await impostor.post("/api/auth/callback/credentials", { form: { csrfToken, email: OPERATOR_EMAIL, password: "impostor wants the console", json: "true" } });
  expect((await (await impostor.get("/api/auth/session")).json())?.user).toBeUndefined();
  expect((await impostor.get(`/api/admin/users?q=${encodeURIComponent("@")}`)).status()).toBe(401);
  await impostor.dispose();

  // The real operator still signs in with their own password and reaches the console.
  await page.context().clearCookies();
  await signInRequest(page.request, OPERATOR_EMAIL, PASSWORD);
  expect((await page.goto("/admin"))?.status()).toBe(200);
});
