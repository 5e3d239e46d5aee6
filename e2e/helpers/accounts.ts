import { expect, type APIRequestContext, type Page } from "@playwright/test";

export const PASSWORD = "correct horse battery staple";

let counter = 0;
/** An e-mail no other test (or earlier run on the same data) has used. */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}-${++counter}@e2e.test`;
}

/** Signs up through the sign-up page; the page signs in and lands on Account → API Keys. */
export async function signUpInBrowser(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto("/signup");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/account\/api-keys$/);
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

export async function signUpRequest(request: APIRequestContext, baseURL: string, email: string, password = PASSWORD) {
  const response = await request.post("/api/account/signup", {
    data: { email, password },
    headers: { Origin: baseURL },
  });
  expect(response.status()).toBe(201);
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
  const headers = { Origin: baseURL };
  expect((await account.post("/api/account/plan", { data: { tier: options.tier }, headers })).status()).toBe(200);
  const created = await account.post("/api/account/keys", {
    data: { name: options.label, mode: options.mode, permissions: options.permissions, expiry: { kind: "never" } },
    headers,
  });
  expect(created.status()).toBe(201);
  const { key, view } = (await created.json()).data as { key: string; view: { id: string; prefix: string } };
  return { account, email, key, view };
}
