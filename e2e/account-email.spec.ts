import { expect, test } from "@playwright/test";
import { linkPath, PASSWORD, signInRequest, signUpInBrowser, uniqueEmail, waitForMail, switchToPro } from "./helpers/accounts";

test("an unverified account sees the notice, cannot create live keys, resends the link and verifies", async ({ page }) => {
  const email = uniqueEmail("unverified");
  await signUpInBrowser(page, email, PASSWORD, { verify: false });
  const notice = page.getByRole("region", { name: "Verify your e-mail" });
  await expect(notice).toContainText(`Follow the link we sent to ${email}`);

  await switchToPro(page);
  const live = await page.request.post("/api/account/keys", {
    data: { name: "too soon", mode: "live", permissions: ["opportunities:read"], expiry: { kind: "never" } },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(live.status()).toBe(400);
  expect((await live.json()).error.details).toEqual([{ field: "mode", message: expect.stringContaining("Verify your e-mail address before creating live keys") }]);

  await notice.getByRole("button", { name: "Resend verification e-mail" }).click();
  await expect(notice.getByRole("status")).toHaveText(`We sent a new link to ${email}. Earlier links no longer work.`);
  const first = await waitForMail(email, /Verify your e-mail/, 1);
  const second = await waitForMail(email, /Verify your e-mail/, 2);

  await page.goto(linkPath(first, "/verify-email"));
  await expect(page.getByRole("main").getByRole("alert")).toContainText("This link is not valid");
  await page.goto(linkPath(second, "/verify-email"));
  await expect(page.getByRole("status")).toHaveText(`Your e-mail address ${email} is verified. You can now create live API keys.`);
  await page.getByRole("link", { name: "Go to your account" }).click();
  await expect(page.getByRole("heading", { name: "Account", exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Verify your e-mail" })).toHaveCount(0);
  await page.goto(linkPath(second, "/verify-email"));
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("This link has already been used. Each link works once.");
});

test("forgot password: the same answer for any address, a single-use link, a new password, refusals of weak ones", async ({ page, playwright, baseURL }) => {
  const email = uniqueEmail("forgetful");
  await signUpInBrowser(page, email);
  await page.context().clearCookies();
  // Another browser still signed in with the old password: the reset must sign it out.
  const elsewhere = await playwright.request.newContext({ baseURL });
  await signInRequest(elsewhere, email);

  await page.goto("/signin");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel("E-mail").fill(`nobody-${email}`);
  await page.getByRole("button", { name: "Send reset link" }).click();
  const answer = await page.getByRole("status").innerText();
  expect(answer).toContain("If an account has that address, we sent it a link");

  await page.goto("/forgot-password");
  await page.getByLabel("E-mail").fill(email.toUpperCase());
  await page.getByRole("button", { name: "Send reset link" }).click();
  expect(await page.getByRole("status").innerText()).toBe(answer);
  const link = linkPath(await waitForMail(email, /Reset your password/), "/reset-password");

  await page.goto(link);
  await expect(page.getByText(`For ${email}.`)).toBeVisible();
  await page.getByLabel("New password").fill("password12345!");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByLabel("New password")).toHaveAccessibleDescription(/too common/);
  await page.getByLabel("New password").fill("a fresh passphrase for june");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByRole("status")).toContainText("Your password is changed");

  await page.goto(link);
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("This link has already been used. Each link works once.");

  // Its cookie names a session the reset ended: the account area no longer admits it.
  expect((await elsewhere.get("/api/account/keys")).status()).toBe(401);
  await elsewhere.dispose();

  const account = await playwright.request.newContext({ baseURL });
  await signInRequest(account, email, "a fresh passphrase for june");
  await account.dispose();
});

test("sign-up refuses common and trivially weak passwords with a message on the field", async ({ page }) => {
  const email = uniqueEmail("weak");
  await page.goto("/signup");
  await page.getByLabel("E-mail").fill(email);
  for (const [password, message] of [
    ["qwertyuiop123", /too common/],
    ["zzzzzzzzzzzzzz", /repeated/],
    [`${email.split("@")[0]}!`, /e-mail address/],
  ] as const) {
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByLabel("Password")).toHaveAccessibleDescription(message);
  }
});
