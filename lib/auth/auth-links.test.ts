import { describe, expect, it } from "vitest";
import { DEFAULT_RETURN_PATH } from "@/lib/safe-redirect";
import { authPageHref } from "./auth-links";

describe("authPageHref", () => {
  it("carries a deep link's path and query to the other page, encoded as one parameter", () => {
    expect(authPageHref("/signup", "/account/webhooks")).toBe("/signup?callbackUrl=%2Faccount%2Fwebhooks");
    expect(authPageHref("/signin", "/opportunities?exchange=okx&sort=apr")).toBe("/signin?callbackUrl=%2Fopportunities%3Fexchange%3Dokx%26sort%3Dapr");
  });

  it("leaves the query off for the default return path", () => {
    expect(authPageHref("/signin", DEFAULT_RETURN_PATH)).toBe("/signin");
  });

  it("never carries a target sign-in would refuse", () => {
    expect(authPageHref("/signup", "//evil.example/account")).toBe("/signup");
    expect(authPageHref("/signin", "https://evil.example/")).toBe("/signin");
  });
});
