import { describe, expect, it } from "vitest";
import { assertAllowed } from "./route-rule";

describe("assertAllowed", () => {
  const webhooks = { permission: "write" as const, permissionOnPlansWithout: "opportunities:read" as const };

  it("admits an actor holding the rule's permission, and anyone under a null permission", () => {
    expect(() => assertAllowed(webhooks, { tier: "desk", permissions: ["write"] })).not.toThrow();
    expect(() => assertAllowed({ permission: null }, { tier: "free", permissions: [] })).not.toThrow();
  });

  it("asks a plan without the permission for the fallback instead", () => {
    expect(() => assertAllowed(webhooks, { tier: "pro", permissions: ["opportunities:read"] })).not.toThrow();
    expect(() => assertAllowed(webhooks, { tier: "desk", permissions: ["opportunities:read"] })).toThrow(/needs write, included in the Desk plan/);
  });

  it("refuses with 403 FORBIDDEN naming the permission and the plans holding it", () => {
    let refusal: unknown;
    try {
      assertAllowed(webhooks, { tier: "free", permissions: [] });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toMatchObject({ code: "FORBIDDEN", status: 403, message: expect.stringContaining("needs opportunities:read, included in the Pro and Desk plans") });
  });
});
