// The warm-up of `npm run bench:footprint`: everything a first visitor and a first API client touch,
// once, so the memory measured after it includes every page's and every /v1 route's code loaded
// and their caches filled. A new account signs up (its verification link is read from the server
// log: with no SMTP_URL the mail is logged), verifies, signs in, opens every page, becomes Desk,
// creates a key and calls every /v1 route with its documented example, in the order the contract
// tests use. The counts of statuses are returned so a run that warmed up nothing shows it.
import { API_ROUTES } from "@/lib/api/app";
import { openApiPath } from "@/lib/api/openapi/openapi-document";
import { PERMISSIONS } from "@/lib/keys/permissions";
import { routesInExampleOrder } from "@/tests/support/route-order";

/** Every page of the web app (app/**\/page.tsx), signed in; /admin answers 404 to a non-operator. */
export const PAGES = [
  "/",
  "/docs",
  "/opportunities",
  "/portfolio",
  "/account",
  "/account/api-keys",
  "/account/plan",
  "/account/security",
  "/admin",
  "/signin",
  "/signup",
  "/forgot-password",
  "/reset-password",
  "/verify-email",
] as const;

export const PASSWORD = "violet tractor sings at noon";

/** A tiny cookie jar: enough for next-auth's csrf and session cookies on one origin. */
class Browser {
  private readonly cookies = new Map<string, string>();
  readonly statuses = new Map<string, number>();

  constructor(readonly baseUrl: string) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("cookie", [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    if (init.method && init.method !== "GET") headers.set("origin", this.baseUrl);
    const response = await fetch(`${this.baseUrl}${path}`, { ...init, headers, redirect: "manual", signal: AbortSignal.timeout(30_000) });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const at = pair!.indexOf("=");
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const key = String(response.status);
    this.statuses.set(key, (this.statuses.get(key) ?? 0) + 1);
    return response;
  }

  async json<T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
    const response = await this.request(path, init);
    return { status: response.status, body: (await response.json()) as T };
  }
}

const jsonBody = (body: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

export interface WarmUpOptions {
  baseUrl: string;
  email: string;
  /** Sign up and verify first (a fresh database); otherwise the account exists and is Desk already. */
  signUp: boolean;
  /** Resolves with the next verification link the server logs for `email`. */
  verificationLink: () => Promise<string>;
}

export interface WarmUpResult {
  statuses: Map<string, number>;
  key: string;
}

async function signIn(browser: Browser, email: string): Promise<void> {
  const { body } = await browser.json<{ csrfToken: string }>("/api/auth/csrf");
  const form = new URLSearchParams({ csrfToken: body.csrfToken, email, password: PASSWORD, json: "true" });
  await browser.request("/api/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
  });
  const session = await browser.json<{ user?: { email?: string } }>("/api/auth/session");
  if (session.body.user?.email !== email) throw new Error(`signing in as ${email} failed`);
}

/** Every /v1 route once, with its documented example, each after the route creating what it reads. */
async function callEveryRoute(browser: Browser, key: string): Promise<void> {
  const authorization = { authorization: `Bearer ${key}` };
  const created = new Map<string, string>();
  for (const route of routesInExampleOrder(API_ROUTES)) {
    const createdBy = route.example?.createdBy;
    const params = createdBy
      ? Object.fromEntries(Object.keys(route.example?.params ?? {}).map((name) => [name, created.get(createdBy) ?? "missing"]))
      : (route.example?.params ?? {});
    const path = openApiPath(route.path).replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
    const query = route.example?.query ? `?${new URLSearchParams(route.example.query)}` : "";
    const body = route.example?.body;
    const response = await browser.request(`${path}${query}`, {
      method: route.method,
      headers: { ...authorization, ...(body && { "content-type": "application/json" }) },
      ...(body && { body: JSON.stringify(body) }),
    });
    const answer = (await response.json()) as { data?: { id?: unknown } };
    if (typeof answer.data?.id === "string") created.set(route.operationId, answer.data.id);
  }
  for (const path of ["/v1/openapi.json", "/healthz", "/v1/opportunities?limit=100&sort=-net_apr"]) {
    await (await browser.request(path, { headers: authorization })).arrayBuffer();
  }
}

export async function warmUp(options: WarmUpOptions): Promise<WarmUpResult> {
  const browser = new Browser(options.baseUrl);
  if (options.signUp) {
    const link = options.verificationLink();
    const signedUp = await browser.request("/api/account/signup", jsonBody({ email: options.email, password: PASSWORD }));
    if (signedUp.status !== 202) throw new Error(`sign-up answered ${signedUp.status}`);
    const verify = new URL(await link);
    await (await browser.request(`${verify.pathname}${verify.search}`)).arrayBuffer();
  }
  await signIn(browser, options.email);
  for (const page of PAGES) await (await browser.request(page)).arrayBuffer();
  if (options.signUp) {
    const plan = await browser.request("/api/account/plan", jsonBody({ tier: "desk" }));
    if (plan.status !== 200) throw new Error(`changing the plan answered ${plan.status}`);
  }
  const created = await browser.json<{ data: { key: string } }>(
    "/api/account/keys",
    jsonBody({ name: "footprint", mode: "live", permissions: [...PERMISSIONS], expiry: { kind: "never" } }),
  );
  if (created.status !== 201) throw new Error(`creating a key answered ${created.status}`);
  await (await browser.request("/api/account/keys")).arrayBuffer();
  await (await browser.request("/api/account/sessions")).arrayBuffer();
  await callEveryRoute(browser, created.body.data.key);
  // The pages once more, now that the account holds a key, a position and a simulation.
  for (const page of PAGES) await (await browser.request(page)).arrayBuffer();
  return { statuses: browser.statuses, key: created.body.data.key };
}
