import { describe, expect, it, vi } from "vitest";

const loaded = vi.hoisted(() => ({ ioredis: false, upstashRedis: false }));
vi.mock("ioredis", () => {
  loaded.ioredis = true;
  return {};
});
vi.mock("@upstash/redis", async (importOriginal) => {
  loaded.upstashRedis = true;
  return importOriginal();
});

const { createRateLimiter } = await import("./create-rate-limiter");

describe("createRateLimiter", () => {
  it("uses the in-process window when no store is configured, without loading Redis clients", async () => {
    const limiter = createRateLimiter({ REDIS_URL: " ", UPSTASH_REDIS_REST_URL: "" });
    expect(limiter.status()).toEqual({ store: "memory", degraded: false });
    await expect(limiter.limit("k", 100, 60_000)).resolves.toMatchObject({ success: true, remaining: 99 });
    await limiter.close();
    expect(loaded).toEqual({ ioredis: false, upstashRedis: false });
  });

  it("builds an Upstash REST limiter from its URL and token", async () => {
    const limiter = createRateLimiter({
      UPSTASH_REDIS_REST_URL: "https://example.upstash.io",
      UPSTASH_REDIS_REST_TOKEN: "token",
    });
    expect(limiter.status()).toEqual({ store: "upstash", degraded: false });
    await limiter.close();
    expect(loaded.upstashRedis).toBe(true);
  });

  it("refuses an Upstash URL without its token", () => {
    expect(() => createRateLimiter({ UPSTASH_REDIS_REST_URL: "https://example.upstash.io" })).toThrow(
      /UPSTASH_REDIS_REST_TOKEN/,
    );
  });

  it("prefers REDIS_URL when both stores are configured", async () => {
    const limiter = createRateLimiter({
      REDIS_URL: "redis://127.0.0.1:1",
      UPSTASH_REDIS_REST_URL: "https://example.upstash.io",
      UPSTASH_REDIS_REST_TOKEN: "token",
    });
    expect(limiter.status().store).toBe("redis");
    await limiter.close();
  });
});
