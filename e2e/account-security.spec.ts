import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { PASSWORD, signInRequest, signUpRequest, uniqueEmail } from "./helpers/accounts";
import { startServer, waitUntilHealthy } from "./helpers/server-process";

// callbackUrl values as they appear in the address bar: tab, newline and CR between the slashes
// (browsers drop them, leaving "//evil.example"), backslashes, other schemes, Unicode spaces.
const NASTY_CALLBACKS = [
  "/%09/evil.example",
  "/%0a/evil.example",
  "/%0d/evil.example",
  "%0a/evil.example",
  "/%0d%0aSet-Cookie:%20x=y",
  "//evil.example",
  "/%5Cevil.example",
  "/%5C%5Cevil.example",
  "%5C%5Cevil.example",
  "https://evil.example",
  "https:evil.example",
  "javascript:alert(document.domain)",
  "/%E2%80%80/evil.example",
  "/%E2%80%8B/evil.example",
  "/%E3%80%80/evil.example",
  "%E3%80%80//evil.example",
  "/%2509/evil.example",
];

async function sessions(context: APIRequestContext) {
  return context.get("/api/account/sessions");
}

test("a sign-in link with a hostile callbackUrl never errors and never leaves the site", async ({ page, playwright, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const email = uniqueEmail("redirect");
  const setup = await playwright.request.newContext({ baseURL });
  await signUpRequest(setup, baseURL!, email);

  for (const callback of NASTY_CALLBACKS) {
    const signedOut = await setup.get(`/signin?callbackUrl=${callback}`, { maxRedirects: 0 });
    expect(signedOut.status(), callback).toBe(200);
    const nextAuth = await setup.get(`/api/auth/signin?callbackUrl=${callback}`, { maxRedirects: 0 });
    expect(nextAuth.status(), callback).toBeLessThan(500);
    const location = nextAuth.headers()["location"];
    if (location) expect(new URL(location, origin).origin, callback).toBe(origin);
  }

  // Signed in, /signin sends the visitor on at once: to a path of this site.
  await signInRequest(setup, email);
  for (const callback of NASTY_CALLBACKS) {
    const response = await setup.get(`/signin?callbackUrl=${callback}`, { maxRedirects: 0 });
    expect(response.status(), callback).toBeLessThan(400);
    expect(response.status(), callback).not.toBe(200);
    const location = response.headers()["location"]!;
    expect(new URL(location, origin).origin, callback).toBe(origin);
    expect(location, callback).not.toMatch(/^[/\\]{2}|^[a-z]+:/i);
  }
  await setup.dispose();

  // The whole flow in a browser: the form, then wherever the page sends it.
  for (const callback of ["/%09/evil.example", "/%0a/evil.example", "/%E3%80%80/evil.example", "/%5Cevil.example"]) {
    await page.context().clearCookies();
    const response = await page.goto(`/signin?callbackUrl=${callback}`);
    expect(response!.status(), callback).toBe(200);
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).not.toHaveURL(/\/signin/);
    expect(new URL(page.url()).origin, callback).toBe(origin);
  }
});

test("sessions: listed, signed out one by one or everywhere, and a signed-out cookie stays dead", async ({ playwright, baseURL }) => {
  const headers = { Origin: baseURL! };
  const email = uniqueEmail("sessions");
  const laptop = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "User-Agent": "Laptop browser" } });
  const phone = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "User-Agent": "Phone browser" } });
  await signUpRequest(laptop, baseURL!, email);
  // A forged X-Forwarded-For is ignored: no proxy is trusted, so the socket's address is recorded.
  const forged = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "X-Forwarded-For": "192.0.2.55" } });
  for (const context of [laptop, phone, forged]) await signInRequest(context, email);

  const listed = (await (await sessions(laptop)).json()).data as { id: string; current: boolean; ip: string; user_agent: string }[];
  expect(listed).toHaveLength(3);
  expect(listed.filter((s) => s.current).map((s) => s.user_agent)).toEqual(["Laptop browser"]);
  expect(listed.map((s) => s.ip)).not.toContain("192.0.2.55");
  const phoneSession = listed.find((s) => s.user_agent === "Phone browser")!;

  // Signing out one session ends that browser's cookie at once.
  expect((await laptop.post(`/api/account/sessions/${phoneSession.id}/revoke`, { data: {}, headers })).status()).toBe(200);
  expect((await sessions(phone)).status()).toBe(401);
  expect((await laptop.post(`/api/account/sessions/${phoneSession.id}/revoke`, { data: {}, headers })).status()).toBe(404);
  // Cross-site requests cannot sign anyone out.
  expect((await laptop.post("/api/account/sessions/revoke", { data: {}, headers: { Origin: "http://evil.example" } })).status()).toBe(403);

  // Sign-out revokes the session itself: the same cookie replayed afterwards is refused.
  const replay = await forged.storageState();
  const { csrfToken } = (await (await forged.get("/api/auth/csrf")).json()) as { csrfToken: string };
  expect((await forged.post("/api/auth/signout", { form: { csrfToken, json: "true" } })).ok()).toBe(true);
  const replayed = await playwright.request.newContext({ baseURL, storageState: replay });
  expect((await sessions(replayed)).status()).toBe(401);

  // Sign out everywhere ends the remaining ones, this one included.
  const everywhere = await laptop.post("/api/account/sessions/revoke", { data: {}, headers });
  expect((await everywhere.json()).data).toEqual({ revoked: 1 });
  expect((await sessions(laptop)).status()).toBe(401);
  for (const context of [laptop, phone, forged, replayed]) await context.dispose();
});

test("Account → Security: change the password, which signs out the other sessions; sign out everywhere", async ({ page, playwright, baseURL }) => {
  const email = uniqueEmail("security");
  const elsewhere = await playwright.request.newContext({ baseURL });
  await signUpRequest(elsewhere, baseURL!, email);
  await signInRequest(elsewhere, email);

  await page.goto("/signin?callbackUrl=%2Faccount%2Fsecurity");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/account\/security$/);
  await expect(page.getByRole("heading", { name: "Active sessions" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Active sessions" }).getByRole("row")).toHaveCount(3); // header + 2

  const form = page.getByRole("form", { name: "Change password" });
  await form.getByLabel("Current password").fill("not my password at all");
  await form.getByLabel("New password").fill("an entirely new passphrase");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");
  expect((await sessions(elsewhere)).status()).toBe(200);

  await form.getByLabel("Current password").fill(PASSWORD);
  await form.getByLabel("New password").fill("an entirely new passphrase");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByRole("status")).toHaveText("Password changed. 1 other session was signed out.");
  expect((await sessions(elsewhere)).status()).toBe(401);
  await expect(page.getByRole("table", { name: "Active sessions" }).getByRole("row")).toHaveCount(2);
  await expect(page.getByRole("cell", { name: "Password changed" })).toBeVisible();

  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page).toHaveURL(/\/signin/);
  await page.goto("/account/security");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  await elsewhere.dispose();
});

test("behind a trusted proxy the client address comes from X-Forwarded-For, and only then", async ({ playwright }) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "fods-proxy-"));
  process.env.TRUSTED_PROXIES = "127.0.0.1, ::1";
  const server = await startServer(dataDir).finally(() => delete process.env.TRUSTED_PROXIES);
  try {
    await waitUntilHealthy(server.port);
    const baseURL = `http://localhost:${server.port}`;
    const email = uniqueEmail("proxied");
    const context = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "X-Forwarded-For": "198.51.100.200, 192.0.2.10" } });
    // This server sends no mail (the suite's mail catcher belongs to the main one): sign-up answers all the same.
    expect((await context.post("/api/account/signup", { data: { email, password: PASSWORD }, headers: { Origin: baseURL } })).status()).toBe(202);
    await signInRequest(context, email);
    const listed = (await (await sessions(context)).json()).data as { ip: string }[];
    // The proxy (this machine) appended 192.0.2.10, an address it does not trust: that is the client;
    // 198.51.100.200 further left is whatever the client claimed and is never believed.
    expect(listed.map((s) => s.ip)).toEqual(["192.0.2.10"]);
    await context.dispose();
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
});
