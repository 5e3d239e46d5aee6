import { describe, expect, it } from "vitest";
import { mintStreamToken, readStreamToken, streamTokenKey, type StreamTokenClaims } from "./stream-token";

const key = streamTokenKey({ NEXTAUTH_SECRET: "a shared secret" });
const claims: StreamTokenClaims = { key: "k1", user: "u1", mode: "live", filters: { symbol: "BTC", types: ["opportunity.opened"] }, exp: 1_000 };

describe("stream tokens", () => {
  it("reads back what was minted until it expires, on any server sharing NEXTAUTH_SECRET", () => {
    const token = mintStreamToken(key, claims);
    expect(token).toMatch(/^sst_[\w-]+\.[\w-]+$/);
    expect(readStreamToken(streamTokenKey({ NEXTAUTH_SECRET: "a shared secret" }), token, 999_999)).toEqual(claims);
    expect(readStreamToken(key, token, 1_000_000)).toBe("expired");
  });

  it("refuses a token signed with another secret, altered, or not a token at all", () => {
    const token = mintStreamToken(key, claims);
    expect(readStreamToken(streamTokenKey({ NEXTAUTH_SECRET: "another" }), token, 0)).toBeNull();
    const [payload, signature] = token.slice(4).split(".");
    const widened = Buffer.from(JSON.stringify({ ...claims, mode: "live", filters: {} })).toString("base64url");
    expect(readStreamToken(key, `sst_${widened}.${signature}`, 0)).toBeNull();
    expect(readStreamToken(key, `sst_${payload}.${signature}x`, 0)).toBeNull();
    expect(readStreamToken(key, `svc_sk_live_${payload}`, 0)).toBeNull();
    expect(readStreamToken(key, "sst_.", 0)).toBeNull();
  });
});
