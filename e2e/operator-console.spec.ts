import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { PASSWORD, signInRequest, uniqueEmail } from "./helpers/accounts";

// playwright.config.ts starts the server with ADMIN_EMAILS set to this address.
const OPERATOR_EMAIL = "operator@e2e.test";

/** Signs up (returning the new account's id) with the Origin header the account routes require. */
async function signUp(request: APIRequestContext, baseURL: string, email: string): Promise<string> {
  const response = await request.post("/api/account/signup", { data: { email, password: PASSWORD }, headers: { Origin: baseURL } });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

/** The operator's account may already exist if another spec in this run created it first. */
async function signInOperator(request: APIRequestContext, baseURL: string): Promise<void> {
  const response = await request.post("/api/account/signup", {
    data: { email: OPERATOR_EMAIL, password: PASSWORD },
    headers: { Origin: baseURL },
  });
  if (response.status() !== 201) expect(JSON.stringify(await response.json())).toContain("already exists");
  await signInRequest(request, OPERATOR_EMAIL);
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
  await signInRequest(page.request, email);
  expect(await notFoundText(page, "/admin")).toBe(await notFoundText(page, "/no-such-page-here"));
  expect(await page.content()).not.toContain("Operator console");

  const headers = { Origin: baseURL! };
  expect((await page.request.post("/api/account/plan", { data: { tier: "pro" }, headers })).status()).toBe(200);
  const created = await page.request.post("/api/account/keys", {
    data: { name: "mine", mode: "live", permissions: ["opportunities:read"], expiry: { kind: "never" } },
    headers,
  });
  expect(created.status()).toBe(201);
  const keyId = ((await created.json()) as { data: { view: { id: string } } }).data.view.id;

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
  await signInRequest(trader, traderEmail);
  const headers = { Origin: baseURL! };
  expect((await trader.post("/api/account/plan", { data: { tier: "pro" }, headers })).status()).toBe(200);
  const created = await trader.post("/api/account/keys", {
    data: { name: "desk bot", mode: "live", permissions: ["opportunities:read", "portfolio:read"], expiry: { kind: "never" } },
    headers,
  });
  expect(created.status()).toBe(201);
  const { view } = ((await created.json()) as { data: { view: { id: string; prefix: string } } }).data;

  await signInOperator(page.request, baseURL!);
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
  const trail = page.getByRole("table");
  await expect(trail.getByRole("row", { name: /Plan changed/ }).first()).toContainText(`${traderEmail}: Pro → Desk`);
  await expect(trail.getByRole("row", { name: /API key revoked/ }).first()).toContainText(`“desk bot” ${view.prefix} of ${traderEmail}`);
  await page.screenshot({ path: "e2e-artifacts/operator-console-security.png", fullPage: true });
  await trader.dispose();
});

test("the plan page switches tiers at once and asks before a downgrade, saying what keys lose", async ({ page, baseURL }) => {
  const email = uniqueEmail("planner");
  await signUp(page.request, baseURL!, email);
  await signInRequest(page.request, email);
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
  const actions = await page.getByRole("table").locator("tbody tr td:nth-child(2)").allInnerTexts();
  expect(actions).toEqual(["Plan changed", "Plan changed", "Signed in", "Account created"]);
  await expect(page.getByRole("row", { name: /Plan changed/ }).first()).toContainText("Desk → Free");
});
