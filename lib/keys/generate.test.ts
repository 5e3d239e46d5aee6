import { describe, expect, it, vi } from "vitest";
import type { RandomSource } from "@/lib/keys/base62";
import { ApiKeyCollisionError, generateApiKey, generateUniqueApiKey } from "@/lib/keys/generate";
import { displayPrefix, parseApiKey } from "@/lib/keys/format";
import { hashApiKey } from "@/lib/keys/hash";

/** Every byte the same value: a fully predictable key, so a test can make two draws collide. */
const constantSource =
  (byte: number): RandomSource =>
  (size) =>
    new Uint8Array(size).fill(byte);

/**
 * Serves the given sources one call each (then repeats the last). A constant byte below 248 is
 * never rejected, so each key draws exactly one call.
 */
function sequenceOf(...sources: RandomSource[]): RandomSource & { calls: () => number } {
  let calls = 0;
  const source: RandomSource = (size) => sources[Math.min(calls++, sources.length - 1)]!(size);
  return Object.assign(source, { calls: () => calls });
}

describe("generateApiKey", () => {
  it.each(["live", "test"] as const)("returns a parseable %s key with its hash and display prefix", (mode) => {
    const generated = generateApiKey(mode);
    expect(Object.keys(generated).sort()).toEqual(["hash", "key", "mode", "prefix"]);
    expect(generated.mode).toBe(mode);
    expect(parseApiKey(generated.key)).toEqual({ ok: true, mode, key: generated.key });
    expect(generated.hash).toBe(hashApiKey(generated.key));
    expect(generated.prefix).toBe(displayPrefix(generated.key));
  });

  it("draws its randomness from the injected source", () => {
    const { key } = generateApiKey("live", constantSource(0));
    expect(key.slice(12, 44)).toBe("0".repeat(32));
    expect(generateApiKey("live", constantSource(0)).key).toBe(key);
  });

  it("does not repeat keys from the real random source", () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey("live").key));
    expect(keys.size).toBe(1000);
  });
});

describe("generateUniqueApiKey", () => {
  it("retries after a hash collision and returns the next, unused key", async () => {
    const existing = generateApiKey("live", constantSource(1));
    const random = sequenceOf(constantSource(1), constantSource(2));
    const isTaken = vi.fn(async (hash: string) => hash === existing.hash);

    const generated = await generateUniqueApiKey("live", isTaken, 5, random);

    expect(isTaken).toHaveBeenCalledTimes(2);
    expect(isTaken).toHaveBeenNthCalledWith(1, existing.hash);
    expect(generated.hash).not.toBe(existing.hash);
    expect(generated).toEqual(generateApiKey("live", constantSource(2)));
    expect(random.calls()).toBe(2);
  });

  it("returns the first key when it is free", async () => {
    const isTaken = vi.fn(async () => false);
    const generated = await generateUniqueApiKey("test", isTaken);
    expect(isTaken).toHaveBeenCalledExactlyOnceWith(generated.hash);
    expect(generated.mode).toBe("test");
  });

  it("throws after maxAttempts when every key collides", async () => {
    const isTaken = vi.fn(async () => true);
    await expect(generateUniqueApiKey("live", isTaken, 5, constantSource(3))).rejects.toBeInstanceOf(
      ApiKeyCollisionError,
    );
    expect(isTaken).toHaveBeenCalledTimes(5);
  });

  it("honours a custom maxAttempts and leaves the key out of the error", async () => {
    const isTaken = vi.fn(async () => true);
    const error = await generateUniqueApiKey("live", isTaken, 2, constantSource(4)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiKeyCollisionError);
    expect(isTaken).toHaveBeenCalledTimes(2);
    const key = generateApiKey("live", constantSource(4)).key;
    expect(String((error as Error).message)).not.toContain(key.slice(12, 20));
  });
});
