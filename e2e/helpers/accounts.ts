import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { e2ePorts, PASSWORD } from "./e2e-env";

export { PASSWORD };

let counter = 0;
/** An e-mail no other test (or earlier run on the same data) has used: the process id keeps two workers' apart. */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}-${process.pid.toString(36)}-${++counter}@e2e.test`;
}

export interface CaughtMail {
  to: string[];
  subject: string;
  text: string;
}

/** The messages the server sent to `to`, oldest first, as the loopback SMTP server received them. */
export async function mailTo(to: string): Promise<CaughtMail[]> {
  const response = await fetch(`http://127.0.0.1:${e2ePorts().mail}/messages?to=${encodeURIComponent(to)}`);
  return (await response.json()) as CaughtMail[];
}

/** Waits for the `nth` (from 1) message to `to` whose subject matches, and returns it. */
export async function waitForMail(to: string, subject: RegExp, nth = 1): Promise<CaughtMail> {
  let found: CaughtMail | undefined;
  await expect
    .poll(async () => {
      found = (await mailTo(to)).filter((m) => subject.test(m.subject))[nth - 1];
      return Boolean(found);
    }, { message: `mail to ${to} matching ${subject}`, timeout: 15_000 })
    .toBe(true);
  return found!;
}

/** The path and query of the link to `pathname` in a message (its origin is the server's public URL). */
export function linkPath(mail: CaughtMail, pathname: string): string {
  const link = mail.text.match(/https?:\/\/\S+/g)?.map((url) => new URL(url)).find((url) => url.pathname === pathname);
  if (!link) throw new Error(`No ${pathname} link in "${mail.subject}":\n${mail.text}`);
  return link.pathname + link.search;
}

/** Follows the verification link mailed to `email` (the latest one) with `request`. */
export async function verifyEmailRequest(request: APIRequestContext, email: string): Promise<void> {
  const mails = (await mailTo(email)).filter((m) => /Verify your e-mail/.test(m.subject));
  const mail = mails.at(-1) ?? (await waitForMail(email, /Verify your e-mail/));
  const page = await request.get(linkPath(mail, "/verify-email"));
  expect(page.status()).toBe(200);
  expect(await page.text()).toContain("is verified");
}

/**
 * Signs up through the sign-up page, which signs in at once and lands on Account → API Keys, then
 * follows the verification link from the mail (unless `verify: false`) and comes back there.
 */
export async function signUpInBrowser(page: Page, email: string, password = PASSWORD, { verify = true } = {}): Promise<void> {
  await page.goto("/signup");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/account\/api-keys$/);
  if (verify) {
    await page.goto(linkPath(await waitForMail(email, /Verify your e-mail/), "/verify-email"));
    await expect(page.getByRole("status")).toContainText(`Your e-mail address ${email} is verified`);
    await page.goto("/account/api-keys");
  }
}

/** Switches the signed-in account to Pro on the plan page (demo billing) and waits until the page says so. */
export async function switchToPro(page: Page): Promise<void> {
  await page.goto("/account/plan");
  await page.getByRole("button", { name: "Switch to Pro" }).click();
  await expect(page.getByText("Current plan: Pro")).toBeVisible();
}

/** Signs up (signUpInBrowser), sees `gatedPage` tell the Free account `notice`, then switches to Pro. */
export async function signUpThenSwitchToPro(page: Page, email: string, gatedPage: string, notice: string): Promise<void> {
  await signUpInBrowser(page, email);
  await page.goto(gatedPage);
  await expect(page.getByText(notice)).toBeVisible();
  await switchToPro(page);
}

/** Signs a request context in through next-auth's credentials callback, as a script would. */
export async function signInRequest(request: APIRequestContext, email: string, password = PASSWORD): Promise<void> {
  const { csrfToken } = (await (await request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const response = await request.post("/api/auth/callback/credentials", {
    form: { csrfToken, email, password, json: "true" },
  });
  expect(response.ok()).toBe(true);
  const session = await (await request.get("/api/auth/session")).json();
  expect(session?.user?.email).toBe(email);
}

/** Signs up with the API (the same answer whether or not the address is new) and, by default, verifies the address. */
export async function signUpRequest(request: APIRequestContext, baseURL: string, email: string, password = PASSWORD, { verify = true } = {}) {
  const response = await request.post("/api/account/signup", {
    data: { email, password },
    headers: { Origin: baseURL },
  });
  expect(response.status()).toBe(202);
  expect((await response.json()).data).toEqual({ message: "Check your inbox to verify your address, then sign in.", delivery: "smtp" });
  if (verify) await verifyEmailRequest(request, email);
}

/**
 * A fresh account on `tier`, signed in on its own request context, holding one API key created
 * through the account area: the secret (shown once) and the key's view as the account area lists it.
 */
export async function accountWithKey(
  playwright: { request: { newContext: (options: { baseURL?: string }) => Promise<APIRequestContext> } },
  baseURL: string,
  options: { label: string; tier: "pro" | "desk"; mode: "live" | "test"; permissions: string[] },
) {
  const account = await playwright.request.newContext({ baseURL });
  const email = uniqueEmail(options.label);
  await signUpRequest(account, baseURL, email);
  await signInRequest(account, email);
  const { key, view } = await keyOnPlan(account, baseURL, options.tier, { name: options.label, mode: options.mode, permissions: options.permissions });
  return { account, email, key, view };
}

/**
 * Moves the account signed in on `request` to `tier` and creates an API key (never expiring) through
 * the account area: the secret (shown once) and the key's view as the account area lists it.
 */
export async function keyOnPlan(
  request: APIRequestContext,
  baseURL: string,
  tier: "pro" | "desk",
  key: { name: string; mode: "live" | "test"; permissions: string[] },
): Promise<{ key: string; view: { id: string; prefix: string } }> {
  const headers = { Origin: baseURL };
  expect((await request.post("/api/account/plan", { data: { tier }, headers })).status()).toBe(200);
  const created = await request.post("/api/account/keys", { data: { ...key, expiry: { kind: "never" } }, headers });
  expect(created.status()).toBe(201);
  return (await created.json()).data as { key: string; view: { id: string; prefix: string } };
}
