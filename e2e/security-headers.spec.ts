import { expect, test } from "@playwright/test";

// The headers of every surface (lib/api/security-headers.ts), and a page under its CSP in a real
// browser: Next's nonce'd bootstrap and swagger-ui's bundle run, and nothing is refused.
const BASELINE = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
};

test("pages, /api/*, /v1 and /healthz carry the security headers", async ({ request }) => {
  for (const path of ["/", "/docs", "/api/auth/csrf", "/v1/openapi.json", "/v1/opportunities", "/healthz"]) {
    const response = await request.get(path);
    const headers = response.headers();
    expect(headers, path).toMatchObject(BASELINE);
    expect(headers["permissions-policy"], path).toContain("camera=()");
    expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
    // Served over plain http in the tests: no HSTS (it is sent when PUBLIC_URL is https).
    expect(headers["strict-transport-security"], path).toBeUndefined();
  }
  const page = (await request.get("/docs")).headers()["content-security-policy"]!;
  expect(page).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(page).not.toContain("unsafe-eval");
  // A fresh nonce each time.
  expect((await request.get("/docs")).headers()["content-security-policy"]).not.toBe(page);
});

test("/v1 answers a CORS preflight without a key and lets pages read its answers", async ({ request }) => {
  const preflight = await request.fetch("/v1/portfolio/positions", {
    method: "OPTIONS",
    headers: { Origin: "https://bot.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type, idempotency-key" },
  });
  expect(preflight.status()).toBe(204);
  expect(preflight.headers()).toMatchObject({
    "access-control-allow-origin": "*",
    "access-control-allow-headers": "Authorization, Content-Type, Idempotency-Key, If-None-Match",
  });
  expect(preflight.headers()["access-control-allow-credentials"]).toBeUndefined();
  const answer = await request.get("/v1/opportunities", { headers: { Origin: "https://bot.example" } });
  expect(answer.status()).toBe(401);
  expect(answer.headers()["access-control-allow-origin"]).toBe("*");
  expect(answer.headers()["access-control-expose-headers"]).toContain("X-Request-Id");
  // The account area allows no other origin.
  const account = await request.fetch("/api/account/keys", { method: "OPTIONS", headers: { Origin: "https://bot.example", "Access-Control-Request-Method": "POST" } });
  expect(account.headers()["access-control-allow-origin"]).toBeUndefined();
});

test("pages run under their policy: nothing is refused and the app hydrates", async ({ page }) => {
  const refused: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
  });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  for (const path of ["/", "/signin", "/docs"]) await page.goto(path, { waitUntil: "networkidle" });
  await expect(page.locator(".swagger-ui .opblock").first()).toBeVisible({ timeout: 20_000 });
  expect(refused).toEqual([]);
  expect(errors).toEqual([]);
});

test("the public origin is configured: request headers change neither /docs nor the same-origin check", async ({ request, baseURL }) => {
  // The examples name PUBLIC_URL's origin (here the default, http://localhost:$PORT), whatever the request claims.
  const docs = await (await request.get("/docs", { headers: { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" } })).text();
  expect(docs).not.toContain("evil.example");
  expect(docs).toContain(`${baseURL}/v1/opportunities?limit=5`);

  // Same host and port over another scheme is another origin: refused before anything else is looked at.
  const body = { email: `origin-${Date.now()}@e2e.test`, password: "a long enough password 123" };
  const httpsOrigin = baseURL!.replace(/^http:/, "https:");
  const refused = await request.post("/api/account/signup", { data: body, headers: { Origin: httpsOrigin } });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error).toMatchObject({ code: "FORBIDDEN", message: "Cross-site request refused" });
  const spoofedHost = await request.post("/api/account/signup", { data: body, headers: { Origin: "http://evil.example", Host: "evil.example" } });
  expect(spoofedHost.status()).toBe(403);
});
