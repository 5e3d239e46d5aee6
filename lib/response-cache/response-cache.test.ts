import { describe, expect, it } from "vitest";
import { ResponseCache, responseCacheBudget, type BodyParts } from "./response-cache";

const parts = (text: string, validUntil?: number): BodyParts => ({ before: text, after: "", ...(validUntil !== undefined && { validUntil }) });

describe("ResponseCache", () => {
  it("builds an answer once per version and serves it until the version changes", async () => {
    const cache = new ResponseCache(1_000_000);
    const published = { version: 1 };
    let builds = 0;
    const build = async () => parts(`built ${++builds}`);
    const address = { scope: "live", version: published, key: "list" };
    expect(cache.peek(address)).toBeUndefined();
    const first = await cache.get(address, build);
    expect(cache.peek(address)).toBe(first);
    expect(await cache.get(address, build)).toBe(first);
    expect(builds).toBe(1);

    const republished = { version: 2 };
    const second = await cache.get({ ...address, version: republished }, build);
    expect(second).not.toBe(first);
    expect(builds).toBe(2);
    // The scope moved on: the older version's answer is gone, not merely unused.
    expect(cache.stats()).toMatchObject({ entries: 1, misses: 2 });
  });

  it("keeps scopes apart: a new test-mode version leaves live answers alone", async () => {
    const cache = new ResponseCache(1_000_000);
    const live = { scope: "live", version: {}, key: "k" };
    const kept = await cache.get(live, async () => parts("live"));
    await cache.get({ scope: "test", version: {}, key: "k" }, async () => parts("test"));
    await cache.get({ scope: "test", version: {}, key: "k" }, async () => parts("test, next minute"));
    expect(cache.peek(live)).toBe(kept);
    expect(cache.stats().entries).toBe(2);
  });

  it("shares one build between requests that arrive while it runs, and keeps no failure", async () => {
    const cache = new ResponseCache(1_000_000);
    const address = { scope: "live", version: {}, key: "k" };
    let builds = 0;
    let release!: () => void;
    const slow = () => {
      builds++;
      return new Promise<BodyParts>((resolve) => (release = () => resolve(parts("slow"))));
    };
    const waiting = [cache.get(address, slow), cache.get(address, slow), cache.get(address, slow)];
    release();
    const bodies = await Promise.all(waiting);
    expect(builds).toBe(1);
    expect(new Set(bodies).size).toBe(1);

    const failing = { scope: "live", version: address.version, key: "missing" };
    await expect(cache.get(failing, async () => Promise.reject(new Error("no such id")))).rejects.toThrow("no such id");
    expect(cache.peek(failing)).toBeUndefined();
    expect((await cache.get(failing, async () => parts("found now"))).tag("identity")).toMatch(/^"/);
  });

  it("rebuilds an answer past its validUntil", async () => {
    let now = 1_000;
    const cache = new ResponseCache(1_000_000, () => now);
    const address = { scope: "live", version: {}, key: "k" };
    const first = await cache.get(address, async () => parts("first", 2_000));
    now = 1_999;
    expect(cache.peek(address)).toBe(first);
    now = 2_000;
    expect(cache.peek(address)).toBeUndefined();
    expect(await cache.get(address, async () => parts("second", 3_000))).not.toBe(first);
  });

  it("stays within its byte budget, compressed codings included", async () => {
    const cache = new ResponseCache(40_000);
    const version = {};
    const text = JSON.stringify(Array.from({ length: 600 }, (_, i) => ({ id: i, name: `asset ${i}` })));
    for (let i = 0; i < 5; i++) {
      const body = await cache.get({ scope: "live", version, key: `k${i}` }, async () => parts(text));
      await body.precompressed("gzip");
      expect(cache.stats().bytes).toBeLessThanOrEqual(40_000);
    }
    expect(cache.stats().evictions).toBeGreaterThan(0);
    expect(cache.stats().entries).toBeLessThan(5);
  });
});

describe("responseCacheBudget", () => {
  it("defaults to 64 MiB and reads RESPONSE_CACHE_MAX_BYTES", () => {
    expect(responseCacheBudget({})).toBe(64 * 1024 * 1024);
    expect(responseCacheBudget({ RESPONSE_CACHE_MAX_BYTES: "1000" })).toBe(1000);
    expect(responseCacheBudget({ RESPONSE_CACHE_MAX_BYTES: "0" })).toBe(0);
    expect(() => responseCacheBudget({ RESPONSE_CACHE_MAX_BYTES: "lots" })).toThrow(/RESPONSE_CACHE_MAX_BYTES/);
  });
});
