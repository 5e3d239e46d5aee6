import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateApiKey } from "@/lib/keys/generate";
import { hashApiKey } from "@/lib/keys/hash";

describe("hashApiKey", () => {
  it("is SHA-256 hex of the whole key", () => {
    expect(hashApiKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const { key } = generateApiKey("live");
    expect(hashApiKey(key)).toBe(createHash("sha256").update(key).digest("hex"));
  });

  it("is 64 lowercase hex characters and deterministic", () => {
    const { key } = generateApiKey("test");
    const hash = hashApiKey(key);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).toBe(hash);
  });

  it("differs between keys, including live and test keys with the same random part", () => {
    const live = generateApiKey("live").key;
    const test = `svc_sk_test_${live.slice(12)}`;
    expect(hashApiKey(live)).not.toBe(hashApiKey(test));
    expect(hashApiKey(live)).not.toBe(hashApiKey(generateApiKey("live").key));
  });

  it("contains no part of the secret", () => {
    // Hex of a hash can coincide with a few base62 characters; 8 in a row cannot by chance.
    for (let i = 0; i < 20; i++) {
      const { key } = generateApiKey("live");
      const hash = hashApiKey(key);
      const secret = key.slice(12);
      for (let start = 0; start + 8 <= secret.length; start++) {
        expect(hash).not.toContain(secret.slice(start, start + 8));
      }
    }
  });
});
