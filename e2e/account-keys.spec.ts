import { expect, test } from "@playwright/test";
import { signInRequest, signUpInBrowser, signUpRequest, uniqueEmail } from "./helpers/accounts";

const KEY_FORMAT = /^svc_sk_live_[0-9A-Za-z]{38}$/;

test("sign up, upgrade to Pro, create a Live key shown once, reload, revoke with confirmation", async ({ page }) => {
  await signUpInBrowser(page, uniqueEmail("journey"));

  // Free accounts see why they cannot create keys, and the way to upgrade.
  await expect(page.getByText("The Free plan has no API access")).toBeVisible();
  await expect(page.getByRole("button", { name: "Create New Key" })).toHaveCount(0);

  // The Account menu and its API Keys tab are how the /docs quick start finds this page.
  await page.getByText("Account", { exact: true }).first().click();
  await page.getByRole("link", { name: "Plan" }).first().click();
  await expect(page).toHaveURL(/\/account\/plan$/);
  await expect(page.locator("details.menu")).not.toHaveAttribute("open"); // the menu closes once an item is chosen
  await page.getByRole("button", { name: "Switch to Pro" }).click();
  await expect(page.getByText("Current plan: Pro")).toBeVisible();

  await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "API Keys" }).click();
  await page.getByRole("button", { name: "Create New Key" }).click();
  const form = page.getByRole("form", { name: "Create API key" });
  await form.getByRole("button", { name: "Create key" }).click(); // no name yet: the field is marked and described
  await expect(form.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Name")).toHaveAccessibleDescription(/required/i);
  await form.getByLabel("Name").fill("trading bot");
  await expect(form.getByLabel("Write operations")).toHaveCount(0); // Pro holds the three reads only
  await expect(form.getByLabel("Read opportunities")).toBeChecked();
  // Test is preselected, as /docs advises for a first key; a production key is a deliberate choice.
  await expect(form.getByRole("radio", { name: /^Test/ })).toBeChecked();
  await form.getByRole("radio", { name: /^Live/ }).check();
  await form.getByRole("button", { name: "Create key" }).click();

  const secret = (await page.getByTestId("new-key-secret").textContent())!.trim();
  expect(secret).toMatch(KEY_FORMAT);
  await expect(page.getByText("It will not be shown again")).toBeVisible();
  const row = page.getByRole("row", { name: /trading bot/ });
  await expect(row).toContainText(`${secret.slice(0, 20)}…`);
  await expect(row).toContainText("Never"); // last used
  await expect(row).toContainText("Active");

  await page.reload();
  await expect(page.getByTestId("new-key-secret")).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);
  await expect(page.getByRole("row", { name: /trading bot/ })).toContainText(`${secret.slice(0, 20)}…`);

  await page.getByRole("row", { name: /trading bot/ }).getByRole("button", { name: "Revoke" }).click();
  const dialog = page.getByRole("dialog", { name: "Revoke trading bot" });
  await expect(dialog).toContainText("takes effect immediately and cannot be undone");
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByRole("row", { name: /trading bot/ })).toContainText("Revoked");
  await page.reload();
  await expect(page.getByRole("row", { name: /trading bot/ })).toContainText("Revoked");
  await expect(page.getByRole("row", { name: /trading bot/ }).getByRole("button", { name: "Revoke" })).toHaveCount(0);
  await page.screenshot({ path: "e2e-artifacts/api-keys-after-revocation.png", fullPage: true });
});

test("a second user can neither see nor revoke the first user's key, even by its id", async ({ playwright, baseURL }) => {
  const owner = await playwright.request.newContext({ baseURL });
  const intruder = await playwright.request.newContext({ baseURL });
  const ownerEmail = uniqueEmail("owner");
  const intruderEmail = uniqueEmail("intruder");
  for (const [context, email] of [
    [owner, ownerEmail],
    [intruder, intruderEmail],
  ] as const) {
    await signUpRequest(context, baseURL!, email);
    await signInRequest(context, email);
  }
  const headers = { Origin: baseURL! };
  expect((await owner.post("/api/account/plan", { data: { tier: "pro" }, headers })).status()).toBe(200);
  const created = await owner.post("/api/account/keys", {
    data: { name: "owner key", mode: "live", permissions: ["opportunities:read"], expiry: { kind: "never" } },
    headers,
  });
  expect(created.status()).toBe(201);
  const { view } = (await created.json()).data;

  const intruderList = await (await intruder.get("/api/account/keys")).json();
  expect(intruderList.data.items).toEqual([]);
  const attempt = await intruder.post(`/api/account/keys/${view.id}/revoke`, { data: {}, headers });
  expect(attempt.status()).toBe(404);
  expect((await attempt.json()).error.code).toBe("NOT_FOUND");

  const ownerList = await (await owner.get("/api/account/keys")).json();
  expect(ownerList.data.items[0]).toMatchObject({ id: view.id, status: "active" });
  // A forged cross-site request is refused even with the owner's cookie.
  const forged = await owner.post(`/api/account/keys/${view.id}/revoke`, { data: {}, headers: { Origin: "http://evil.example" } });
  expect(forged.status()).toBe(403);
  expect((await (await owner.get("/api/account/keys")).json()).data.items[0].status).toBe("active");
  await owner.dispose();
  await intruder.dispose();
});

test("signed-out visitors are sent to sign in and come back", async ({ page }) => {
  await page.goto("/account/api-keys");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Faccount/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
});

test("sign-in errors do not say whether the e-mail exists", async ({ page, playwright, baseURL }) => {
  const email = uniqueEmail("known");
  const context = await playwright.request.newContext({ baseURL });
  await signUpRequest(context, baseURL!, email);
  await context.dispose();
  const messages: string[] = [];
  for (const address of [email, uniqueEmail("unknown")]) {
    await page.goto("/signin");
    await page.getByLabel("E-mail").fill(address);
    await page.getByLabel("Password").fill("definitely the wrong password");
    await page.getByRole("button", { name: "Sign in" }).click();
    // (Next.js keeps an empty role=alert route announcer on every page; the form's own alert is the one.)
    const alert = page.locator("form [role=alert]");
    await expect(alert).not.toBeEmpty();
    messages.push((await alert.textContent())!);
  }
  expect(messages[0]).toBe("Wrong e-mail or password.");
  expect(messages[1]).toBe(messages[0]);
});
