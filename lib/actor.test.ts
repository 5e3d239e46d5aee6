import { describe, expect, it } from "vitest";
import { actorFromKey, actorFromSession, canUsePortfolio, sessionPermissions } from "./actor";

describe("Actor", () => {
  it("from a key: its account, mode, plan and effective permissions, with the key's id", () => {
    const key = { id: "key_1", userId: "user_1", mode: "test" as const, tier: "pro" as const, permissions: ["opportunities:read" as const] };
    expect(actorFromKey(key)).toEqual({ userId: "user_1", mode: "test", tier: "pro", permissions: ["opportunities:read"], credential: "key", keyId: "key_1" });
  });

  it("from a session: live mode, the session's permissions, no key", () => {
    expect(actorFromSession({ id: "user_2", tier: "desk" })).toEqual({
      userId: "user_2",
      mode: "live",
      tier: "desk",
      permissions: ["opportunities:read", "simulations:read", "portfolio:read", "write"],
      credential: "session",
      keyId: null,
    });
  });
});

describe("sessionPermissions", () => {
  it("holds nothing on Free, as Free keys do", () => {
    expect(sessionPermissions("free")).toEqual([]);
    expect(canUsePortfolio({ tier: "free" })).toBe(false);
  });

  it("holds the plan's permissions plus write on the plans with API access", () => {
    expect(sessionPermissions("pro")).toEqual(["opportunities:read", "simulations:read", "portfolio:read", "write"]);
    expect(sessionPermissions("desk")).toEqual(["opportunities:read", "simulations:read", "portfolio:read", "write"]);
    expect(canUsePortfolio({ tier: "pro" })).toBe(true);
  });
});
