import { createServer, type Server, type Socket } from "node:net";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createRateLimiter } from "./create-rate-limiter";
import { ResilientRateLimiter } from "./resilient-rate-limiter";
import { freePort } from "@/tests/support/free-port";
import type { RateLimiterService, RateLimitResult, StoreRateLimiter } from "./types";

const MINUTE = 60_000;
const PRO = 100;
const OK: RateLimitResult = { success: true, limit: PRO, remaining: 7, reset: 0 };

function controllablePrimary() {
  const primary = {
    mode: "hang" as "hang" | "fail" | "ok",
    calls: 0,
    limit: async (): Promise<RateLimitResult> => {
      primary.calls++;
      if (primary.mode === "ok") return OK;
      if (primary.mode === "fail") throw new Error("ECONNREFUSED");
      return new Promise<never>(() => {});
    },
    close: async () => {},
  };
  return primary;
}

/** Calls limit() n times in sequence and returns results with each call's duration. */
async function timedCalls(limiter: RateLimiterService, n: number, key = "key_1") {
  const out: { result: RateLimitResult; ms: number }[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const result = await limiter.limit(key, PRO, MINUTE);
    out.push({ result, ms: performance.now() - started });
  }
  return out;
}

// The fallback counts in fixed minutes: a run of 101 calls straddling a minute's end would get a
// fresh window half-way. The clock stands still a second into a minute (timers stay real).
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(1_700_000_041_000);
});
afterEach(() => {
  vi.useRealTimers();
});

function expectMemoryWindowEnforced(calls: { result: RateLimitResult; ms: number }[]) {
  expect(calls.filter((c) => c.result.success)).toHaveLength(100);
  expect(calls[100]?.result.success).toBe(false);
  expect(Math.max(...calls.map((c) => c.ms))).toBeLessThan(150);
}

describe("ResilientRateLimiter", () => {
  it("answers from memory within the time budget when the store hangs, and logs once", async () => {
    const warn = vi.fn();
    const primary = controllablePrimary();
    const limiter = new ResilientRateLimiter({ store: "redis", primary, warn });
    const calls = await timedCalls(limiter, 101);
    expectMemoryWindowEnforced(calls);
    expect(calls[0]?.ms).toBeGreaterThanOrEqual(45);
    expect(limiter.status()).toMatchObject({ store: "redis", degraded: true, lastError: "no answer within 50 ms" });
    expect(limiter.status().since).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(/redis store unavailable \(no answer within 50 ms\)/);
    // Only the first call waited on the hung store; the rest went straight to memory.
    expect(primary.calls).toBe(1);
  });

  it("answers from memory at once when the store errors", async () => {
    const primary = controllablePrimary();
    primary.mode = "fail";
    const limiter = new ResilientRateLimiter({ store: "redis", primary, warn: () => {} });
    const calls = await timedCalls(limiter, 101);
    expectMemoryWindowEnforced(calls);
    expect(limiter.status()).toMatchObject({ degraded: true, lastError: "ECONNREFUSED" });
  });

  it("probes the store once per interval and returns to it when it answers", async () => {
    const clock = { t: 1_700_000_000_000 };
    const warn = vi.fn();
    const primary = controllablePrimary();
    primary.mode = "fail";
    const limiter = new ResilientRateLimiter({
      store: "upstash",
      primary,
      warn,
      now: () => clock.t,
      probeIntervalMs: 1_000,
    });
    await limiter.limit("k", PRO, MINUTE);
    primary.mode = "ok";
    await limiter.limit("k", PRO, MINUTE);
    expect(primary.calls).toBe(1);
    expect(limiter.status().degraded).toBe(true);

    clock.t += 1_000;
    await expect(limiter.limit("k", PRO, MINUTE)).resolves.toEqual(OK);
    expect(limiter.status()).toEqual({ store: "upstash", degraded: false, since: new Date(clock.t).toISOString() });
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[1]?.[0]).toMatch(/upstash store reachable again/);
    await limiter.limit("k", PRO, MINUTE);
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it("answers from memory, without reporting an outage, while the store is still loading", async () => {
    const warn = vi.fn();
    const primary = controllablePrimary();
    primary.mode = "ok";
    const loading = new Promise<StoreRateLimiter>((resolve) => setTimeout(() => resolve(primary), 120));
    const limiter = new ResilientRateLimiter({ store: "redis", primary: loading, warn });
    await expect(limiter.limit("k", PRO, MINUTE)).resolves.toMatchObject({ success: true, remaining: 99 });
    expect(limiter.status()).toEqual({ store: "redis", degraded: false });
    await loading;
    await expect(limiter.limit("k", PRO, MINUTE)).resolves.toEqual(OK);
    expect(warn).not.toHaveBeenCalled();
  });

  it("rejects bad arguments without blaming the store", async () => {
    const primary = controllablePrimary();
    primary.mode = "ok";
    const limiter = new ResilientRateLimiter({ store: "redis", primary, warn: () => {} });
    await expect(limiter.limit("k", -1, MINUTE)).rejects.toThrow(RangeError);
    expect(limiter.status().degraded).toBe(false);
    expect(primary.calls).toBe(0);
  });

  it("resumes from the store's count when it falls back, and keeps what memory admitted when the store returns", async () => {
    const primary = controllablePrimary();
    let sharedCount = 0;
    const reset = 1_700_000_040_000 + MINUTE;
    primary.limit = async () => {
      primary.calls++;
      if (primary.mode === "fail") throw new Error("ECONNREFUSED");
      sharedCount++;
      return { success: sharedCount <= PRO, limit: PRO, remaining: Math.max(0, PRO - sharedCount), reset };
    };
    const clock = { t: 1_700_000_041_000 };
    const limiter = new ResilientRateLimiter({ store: "redis", primary, warn: () => {}, now: () => clock.t, probeIntervalMs: 1_000 });
    primary.mode = "ok";
    for (let i = 0; i < 60; i++) await limiter.limit("k", PRO, MINUTE);
    primary.mode = "fail";
    const fallback = [];
    for (let i = 0; i < 41; i++) fallback.push(await limiter.limit("k", PRO, MINUTE));
    // 60 counted by the store, so memory admits the remaining 40, not a fresh 100.
    expect(fallback.filter((r) => r.success)).toHaveLength(40);
    expect(fallback[40]?.success).toBe(false);

    // The store is back but never saw those 40: this process still refuses the key.
    primary.mode = "ok";
    clock.t += 1_000;
    expect(await limiter.limit("k", PRO, MINUTE)).toMatchObject({ success: false, remaining: 0 });
    expect(limiter.status().degraded).toBe(false);
  });

  it("admits only this server's share of the limit while the store is away: two live servers, half each", async () => {
    const primary = controllablePrimary();
    primary.mode = "fail";
    const servers = { live: 2 };
    const limiter = new ResilientRateLimiter({ store: "redis", primary, warn: () => {}, liveServers: () => servers.live });
    const calls = await timedCalls(limiter, 60);
    expect(calls.filter((c) => c.result.success)).toHaveLength(50);
    expect(calls[49]?.result).toMatchObject({ success: true, limit: 50, remaining: 0 });
    expect(calls[50]?.result).toMatchObject({ success: false, limit: 50 });
    // Read at each call: a server that stopped beating gives the others its share.
    servers.live = 1;
    expect((await limiter.limit("key_1", PRO, MINUTE)).success).toBe(true);
  });

  it("resumes from the store's count within its share: 30 counted, two servers, 20 more here", async () => {
    const primary = controllablePrimary();
    let sharedCount = 0;
    primary.limit = async () => {
      primary.calls++;
      if (primary.mode === "fail") throw new Error("ECONNREFUSED");
      sharedCount++;
      return { success: true, limit: PRO, remaining: PRO - sharedCount, reset: 1_700_000_040_000 + MINUTE };
    };
    primary.mode = "ok";
    const limiter = new ResilientRateLimiter({ store: "redis", primary, warn: () => {}, liveServers: () => 2 });
    for (let i = 0; i < 30; i++) await limiter.limit("k", PRO, MINUTE);
    primary.mode = "fail";
    const fallback = [];
    for (let i = 0; i < 30; i++) fallback.push(await limiter.limit("k", PRO, MINUTE));
    expect(fallback.filter((r) => r.success)).toHaveLength(20);
  });

  it("carries what memory admitted into the store once, even to concurrent calls, and only for windows still open", async () => {
    const start = 1_700_000_041_000;
    const clock = { t: start };
    const counts = new Map<string, number>();
    const sent: [string, number | undefined][] = [];
    let mode: "fail" | "ok" = "fail";
    const primary: StoreRateLimiter = {
      async limit(key, max, windowMs, count) {
        if (mode === "fail") throw new Error("ECONNREFUSED");
        await new Promise((resolve) => setImmediate(resolve)); // concurrent calls overlap the carry
        sent.push([key, count]);
        const window = `${key}:${Math.floor(clock.t / windowMs)}`;
        const used = (counts.get(window) ?? 0) + (count ?? 1);
        counts.set(window, used);
        return { success: used <= max, limit: max, remaining: Math.max(0, max - used), reset: (Math.floor(clock.t / windowMs) + 1) * windowMs };
      },
      close: async () => {},
    };
    // A store deadline far above the test's own pace: on a loaded machine the default 50 ms would
    // time the carry out and this would test the fallback instead.
    const limiter = new ResilientRateLimiter({ store: "redis", primary, warn: () => {}, now: () => clock.t, probeIntervalMs: 0, liveServers: () => 2, timeoutMs: 10_000 });
    for (let i = 0; i < 3; i++) expect((await limiter.limit("k", PRO, MINUTE)).success).toBe(true);
    for (let i = 0; i < 2; i++) expect((await limiter.limit("j", PRO, MINUTE)).success).toBe(true);

    mode = "ok";
    const back = await Promise.all([limiter.limit("k", PRO, MINUTE), limiter.limit("k", PRO, MINUTE), limiter.limit("j", PRO, MINUTE)]);
    expect(back.every((r) => r.success)).toBe(true);
    // The carries come first, one per key; then the three requests, one each.
    expect(sent.slice(0, 2).sort()).toEqual([["j", 2], ["k", 3]]);
    expect(sent.slice(2).map(([, count]) => count)).toEqual([undefined, undefined, undefined]);
    // Until the window ends this server keeps to its share (50) of what it counts, the store's count included.
    expect(back[0]).toMatchObject({ limit: 50 });
    expect(await limiter.limit("k", PRO, MINUTE)).toMatchObject({ success: true, limit: 50, remaining: 44 });

    // A window that ended while the store was away is not carried: its key in the store has expired.
    mode = "fail";
    await limiter.limit("old", PRO, MINUTE);
    clock.t += MINUTE;
    mode = "ok";
    sent.length = 0;
    expect(await limiter.limit("k", PRO, MINUTE)).toMatchObject({ success: true, limit: PRO, remaining: PRO - 1 });
    expect(sent).toEqual([["k", undefined]]);
  });

  it("falls back when the store could not even be created", async () => {
    const limiter = new ResilientRateLimiter({
      store: "redis",
      primary: Promise.reject<StoreRateLimiter>(new Error("bad REDIS_URL")),
      warn: () => {},
    });
    await expect(limiter.limit("k", PRO, MINUTE)).resolves.toMatchObject({ success: true, remaining: 99 });
    expect(limiter.status()).toMatchObject({ degraded: true, lastError: "bad REDIS_URL" });
  });
});

describe("createRateLimiter with an unusable REDIS_URL", () => {
  let limiter: RateLimiterService | undefined;
  let server: Server | undefined;
  const sockets: Socket[] = [];

  // Loading ioredis blocks the event loop once per process (the timer cannot fire meanwhile);
  // the budget is about Redis, so load it before timing. In the app, create the limiter at boot.
  beforeAll(async () => {
    await import("./ioredis-rate-limiter");
    await import("ioredis");
  });

  afterEach(async () => {
    await limiter?.close();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    limiter = undefined;
    server = undefined;
  });

  it("falls back within the budget when nothing listens on the port", async () => {
    const warn = vi.fn();
    limiter = createRateLimiter({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` }, { warn });
    const calls = await timedCalls(limiter, 101);
    expectMemoryWindowEnforced(calls);
    expect(limiter.status()).toMatchObject({ store: "redis", degraded: true });
    expect(limiter.status().lastError).toMatch(/ECONNREFUSED|no answer|writeable/);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("falls back within the budget when the server accepts but never answers", async () => {
    server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("no TCP address");
    const warn = vi.fn();
    limiter = createRateLimiter({ REDIS_URL: `redis://127.0.0.1:${address.port}` }, { warn });
    const calls = await timedCalls(limiter, 101);
    expectMemoryWindowEnforced(calls);
    expect(limiter.status()).toMatchObject({ store: "redis", degraded: true, lastError: "no answer within 50 ms" });
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
