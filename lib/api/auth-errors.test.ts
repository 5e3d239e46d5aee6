import { describe, expect, it } from "vitest";
import { missingPermission, plansWith, unauthorized } from "./auth-errors";

describe("authentication and permission errors", () => {
  it("say which cause a 401 had, after the code's default text, with the RFC 6750 challenge", () => {
    const missing = unauthorized("missing");
    expect([missing.status, missing.code, missing.message]).toEqual([401, "UNAUTHORIZED", "Invalid or missing API key: the Authorization header is missing"]);
    expect(missing.extra.headers).toEqual({ "WWW-Authenticate": "Bearer" });
    expect(unauthorized("wrong_scheme").extra.headers).toEqual({ "WWW-Authenticate": "Bearer" });
    const unknown = unauthorized("unknown");
    expect(unknown.message).toBe("Invalid or missing API key: the key is unknown, revoked or expired");
    expect(unknown.extra.headers?.["WWW-Authenticate"]).toBe('Bearer error="invalid_token", error_description="the key is unknown, revoked or expired"');
    expect(unauthorized("malformed").extra.headers?.["WWW-Authenticate"]).toMatch(/^Bearer error="invalid_token", error_description="[^"\\]+"$/);
  });

  it("name the missing permission and the plans that include it", () => {
    expect(plansWith("write")).toBe("Desk");
    expect(plansWith("opportunities:read")).toBe("Pro and Desk");
    const write = missingPermission("write");
    expect([write.status, write.code, write.message]).toEqual([403, "FORBIDDEN", "Insufficient permissions for this endpoint: needs write, included in the Desk plan"]);
    expect(missingPermission("portfolio:read").message).toBe("Insufficient permissions for this endpoint: needs portfolio:read, included in the Pro and Desk plans");
  });
});
