import { describe, expect, it } from "vitest";
import { isPublicHttps, isSameOrigin, publicOrigin } from "./public-url";

describe("publicOrigin", () => {
  it("is PUBLIC_URL's origin, before NEXTAUTH_URL and the localhost default", () => {
    expect(publicOrigin({ PUBLIC_URL: "https://funding.example.com/", NEXTAUTH_URL: "http://other:1" })).toBe("https://funding.example.com");
    expect(publicOrigin({ NEXTAUTH_URL: "https://auth.example.com:8443/api/auth" })).toBe("https://auth.example.com:8443");
    expect(publicOrigin({ PORT: "4123" })).toBe("http://localhost:4123");
    expect(publicOrigin({})).toBe("http://localhost:3000");
  });

  it("refuses a value that is not an http(s) URL", () => {
    expect(() => publicOrigin({ PUBLIC_URL: "funding.example.com" })).toThrow(/PUBLIC_URL/);
    expect(() => publicOrigin({ PUBLIC_URL: "ftp://funding.example.com" })).toThrow(/PUBLIC_URL/);
  });

  it("says whether the site is served over https", () => {
    expect(isPublicHttps({ PUBLIC_URL: "https://funding.example.com" })).toBe(true);
    expect(isPublicHttps({})).toBe(false);
  });
});

describe("isSameOrigin", () => {
  const site = "https://funding.example.com";
  it.each([
    ["https://funding.example.com", true],
    ["https://funding.example.com:443", true],
    ["http://funding.example.com", false], // the scheme counts
    ["https://funding.example.com:8443", false], // so does the port
    ["https://evil.example.com", false],
    ["null", false],
    ["", false],
    ["not a url", false],
  ])("%s → %s", (origin, expected) => {
    expect(isSameOrigin(origin, site)).toBe(expected);
  });
  it("refuses a missing header", () => {
    expect(isSameOrigin(null, site)).toBe(false);
  });
});
