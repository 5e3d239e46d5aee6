import { afterEach, describe, expect, it } from "vitest";
import { createApiApp } from "./app";
import { baselineSecurityHeaders, newNonce, pageContentSecurityPolicy } from "./security-headers";

const savedPublicUrl = process.env.PUBLIC_URL;
afterEach(() => {
  if (savedPublicUrl === undefined) delete process.env.PUBLIC_URL;
  else process.env.PUBLIC_URL = savedPublicUrl;
});

describe("the security headers", () => {
  it("send HSTS only when the public URL is https", () => {
    expect(baselineSecurityHeaders(false)).not.toHaveProperty("Strict-Transport-Security");
    expect(baselineSecurityHeaders(true)["Strict-Transport-Security"]).toMatch(/^max-age=\d{8}/);
  });

  it("let pages run only their nonce'd scripts, and be framed by nobody", () => {
    const nonce = newNonce();
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(newNonce()).not.toBe(nonce);
    const policy = pageContentSecurityPolicy(nonce, { https: false, dev: false });
    expect(policy).toContain(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic';`);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).not.toContain("unsafe-eval");
    expect(policy).not.toContain("upgrade-insecure-requests");
    expect(pageContentSecurityPolicy(nonce, { https: true, dev: true })).toMatch(/'unsafe-eval'.*upgrade-insecure-requests/);
  });
});

describe("the API app's headers", () => {
  it("puts the API policy and the baseline on /v1 and /healthz answers, errors included", async () => {
    const app = createApiApp();
    for (const path of ["/v1/opportunities", "/v1/openapi.json"]) {
      const response = await app.fetch(new Request(`http://localhost${path}`));
      expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("permissions-policy")).toContain("geolocation=()");
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(response.headers.get("access-control-allow-credentials")).toBeNull();
      expect(response.headers.get("strict-transport-security")).toBeNull();
    }
  });

  it("adds HSTS when PUBLIC_URL is https", async () => {
    process.env.PUBLIC_URL = "https://funding.example.com";
    const response = await createApiApp().fetch(new Request("http://localhost/v1/opportunities"));
    expect(response.headers.get("strict-transport-security")).toMatch(/^max-age=/);
  });
});

describe("CORS on /v1", () => {
  const app = createApiApp();
  const preflight = (path: string, method = "POST") =>
    app.fetch(
      new Request(`http://localhost${path}`, {
        method: "OPTIONS",
        headers: { Origin: "https://bot.example", "Access-Control-Request-Method": method, "Access-Control-Request-Headers": "authorization" },
      }),
    );

  it("answers a preflight with 204 and the policy, without a key, on any /v1 path", async () => {
    for (const path of ["/v1/portfolio/positions", "/v1/opportunities", "/v1/no-such-path"]) {
      const response = await preflight(path);
      expect(response.status).toBe(204);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(response.headers.get("access-control-allow-methods")).toBe("GET, POST, PATCH, DELETE");
      expect(response.headers.get("access-control-allow-headers")).toBe("Authorization, Content-Type, Idempotency-Key, If-None-Match");
      const exposed = response.headers.get("access-control-expose-headers")!.split(", ");
      for (const name of ["X-RateLimit-Remaining", "X-RateLimit-Reset", "RateLimit", "RateLimit-Policy", "Retry-After", "X-Request-Id", "Idempotent-Replayed", "ETag"]) {
        expect(exposed, name).toContain(name);
      }
      expect(response.headers.get("access-control-max-age")).toBe("86400");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("x-request-id")).toMatch(/^req_/);
      expect(await response.text()).toBe("");
    }
  });

  it("treats an OPTIONS that is no preflight like any other method (authenticated first)", async () => {
    const response = await app.fetch(new Request("http://localhost/v1/opportunities", { method: "OPTIONS" }));
    expect(response.status).toBe(401);
  });

  it("leaves /healthz out of CORS", async () => {
    const response = await preflight("/healthz", "GET");
    expect(response.status).not.toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});
