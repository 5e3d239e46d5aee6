import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { MemoryRateLimiter } from "@/lib/ratelimit";
import { freePort } from "@/tests/support/free-port";
import { ATTEMPT_LIMITS, countAttempt, countSignInAttempt, createAttemptLimiter, pairRules, secondsUntil, SIGN_IN_THROTTLE, tooManyAttemptsMessage } from "./attempt-limits";

function clock(start = Date.UTC(2026, 0, 1, 12, 0, 0, 250)) {
  let at = start;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

async function attempt(limiter: MemoryRateLimiter, now: () => number, ip: string, email: string) {
  try {
    await countSignInAttempt(ip, email, { limiter, now, scale: 1 });
    return null;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return error;
  }
}

/** A guesser that retries the moment it is told it may: the waits it is given, in seconds. */
async function waitsOfPersistentGuesser(attempts: number) {
  const time = clock();
  const limiter = new MemoryRateLimiter({ now: time.now, algorithm: "slidingWindow" });
  const waits: number[] = [];
  let admitted = 0;
  while (admitted < attempts) {
    const refused = await attempt(limiter, time.now, "203.0.113.9", "owner@example.com");
    if (!refused) {
      admitted++;
      continue;
    }
    const seconds = refused.extra.retryAfter as number;
    waits.push(seconds);
    time.advance(seconds * 1000);
  }
  return waits;
}

describe("sign-in throttle policy", () => {
  it("derives doubling windows from the first delay up to the cap, each admitting one more attempt, then the pair ceiling", () => {
    const throttle = { freeAttempts: 5, firstDelayMs: 1000, maxDelayMs: 8000, perPair: 20, windowMs: 900_000 };
    expect(pairRules(throttle)).toEqual([
      { max: 5, windowMs: 1000 },
      { max: 6, windowMs: 2000 },
      { max: 7, windowMs: 4000 },
      { max: 8, windowMs: 8000 },
      { max: 20, windowMs: 900_000 },
    ]);
    expect(pairRules({ ...throttle, maxDelayMs: 1000 }, 50)).toEqual([
      { max: 250, windowMs: 1000 },
      { max: 1000, windowMs: 900_000 },
    ]);
    // The ceiling never undercuts the ladder.
    expect(pairRules({ ...throttle, perPair: 3 }).at(-1)).toEqual({ max: 9, windowMs: 900_000 });
    const rules = pairRules(SIGN_IN_THROTTLE);
    expect(rules.at(-2)!.windowMs).toBeLessThanOrEqual(SIGN_IN_THROTTLE.maxDelayMs);
    expect(rules.at(-1)!.max).toBeLessThanOrEqual(SIGN_IN_THROTTLE.perAddress);
  });

  it("states the real wait in seconds, or in minutes once it is long", () => {
    expect(secondsUntil(10_001, 10_000)).toBe(1);
    expect(secondsUntil(9_000, 10_000)).toBe(1);
    expect(secondsUntil(13_500, 10_000)).toBe(4);
    expect(tooManyAttemptsMessage(1)).toBe("Too many attempts. Try again in 1 second.");
    expect(tooManyAttemptsMessage(42)).toBe("Too many attempts. Try again in 42 seconds.");
    expect(tooManyAttemptsMessage(119)).toBe("Too many attempts. Try again in 119 seconds.");
    expect(tooManyAttemptsMessage(121)).toBe("Too many attempts. Try again in 3 minutes.");
    expect(tooManyAttemptsMessage(900)).toBe("Too many attempts. Try again in 15 minutes.");
  });

  it("admits five attempts at once, then makes a persistent guesser wait 1 s, 2 s, 4 s … and holds it to the pair ceiling", async () => {
    const waits = await waitsOfPersistentGuesser(SIGN_IN_THROTTLE.perPair + 1);
    // Each wait is at least as long as the one before: the guesser never gets back to short waits.
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1]!);
    expect(waits.slice(0, 8)).toEqual([1, 1, 2, 4, 8, 16, 32, 64]);
    expect(Math.max(...waits)).toBeLessThanOrEqual(SIGN_IN_THROTTLE.windowMs / 1000);
  });

  it("reports a wait after which the attempt is admitted", async () => {
    const time = clock();
    const limiter = new MemoryRateLimiter({ now: time.now, algorithm: "slidingWindow" });
    for (let i = 0; i < 9; i++) {
      const refused = await attempt(limiter, time.now, "203.0.113.9", "owner@example.com");
      if (refused) time.advance((refused.extra.retryAfter as number) * 1000);
    }
    const refused = await attempt(limiter, time.now, "203.0.113.9", "owner@example.com");
    expect(refused?.code).toBe("RATE_LIMITED");
    const retryAfter = refused!.extra.retryAfter as number;
    expect(refused!.message).toBe(tooManyAttemptsMessage(retryAfter));
    time.advance(retryAfter * 1000 - 1000);
    expect((await attempt(limiter, time.now, "203.0.113.9", "owner@example.com"))?.code).toBe("RATE_LIMITED");
    time.advance(1000);
    expect(await attempt(limiter, time.now, "203.0.113.9", "owner@example.com")).toBeNull();
  });

  it("never slows the owner's address for a stranger's guesses, and unknown addresses alike", async () => {
    const time = clock();
    const limiter = new MemoryRateLimiter({ now: time.now, algorithm: "slidingWindow" });
    for (let i = 0; i < 40; i++) await attempt(limiter, time.now, "198.51.100.66", "owner@example.com");
    expect(await attempt(limiter, time.now, "198.51.100.66", "owner@example.com")).not.toBeNull();
    expect(await attempt(limiter, time.now, "203.0.113.9", "owner@example.com")).toBeNull();
    // An address with no account behind it is throttled exactly like one with an account.
    for (let i = 0; i < 5; i++) expect(await attempt(limiter, time.now, "198.51.100.67", "nobody@example.com")).toBeNull();
    expect((await attempt(limiter, time.now, "198.51.100.67", "nobody@example.com"))?.extra.retryAfter).toBe(1);
  });

  it("holds one address to its ceiling across accounts", async () => {
    const time = clock();
    const limiter = new MemoryRateLimiter({ now: time.now, algorithm: "slidingWindow" });
    for (let i = 0; i < SIGN_IN_THROTTLE.perAddress; i++) {
      expect(await attempt(limiter, time.now, "198.51.100.70", `user${i}@example.com`)).toBeNull();
    }
    const refused = await attempt(limiter, time.now, "198.51.100.70", "another@example.com");
    expect(refused?.code).toBe("RATE_LIMITED");
    expect(refused!.extra.retryAfter).toBeGreaterThan(60);
    expect(refused!.extra.retryAfter).toBeLessThanOrEqual(SIGN_IN_THROTTLE.windowMs / 1000);
    expect(await attempt(limiter, time.now, "198.51.100.71", "another@example.com")).toBeNull();
  });

  it("while Redis is away, holds each of two live servers to half the address ceiling", async () => {
    const nothingListens = await freePort();
    const limiter = createAttemptLimiter({ REDIS_URL: `redis://127.0.0.1:${nothingListens}` }, () => 2);
    try {
      const outcomes = [];
      for (let i = 0; i <= SIGN_IN_THROTTLE.perAddress; i++) {
        outcomes.push(await countSignInAttempt("198.51.100.80", `user${i}@example.com`, { limiter, scale: 1 }).then(() => "admitted", (error: AppError) => error.code));
      }
      expect(outcomes.filter((o) => o === "admitted")).toHaveLength(SIGN_IN_THROTTLE.perAddress / 2);
      expect(outcomes.at(-1)).toBe("RATE_LIMITED");
      expect(limiter.status()).toMatchObject({ store: "redis", degraded: true });
    } finally {
      await limiter.close();
    }
  });

  it("holds an IPv6 /64 to one ceiling, whichever of its addresses each attempt comes from, and an IPv4-mapped address to its IPv4 one", async () => {
    const time = clock();
    const limiter = new MemoryRateLimiter({ now: time.now, algorithm: "slidingWindow" });
    for (let i = 0; i < SIGN_IN_THROTTLE.perAddress; i++) {
      expect(await attempt(limiter, time.now, `2001:db8:5:6::${(i + 1).toString(16)}`, `user${i}@example.com`)).toBeNull();
    }
    expect((await attempt(limiter, time.now, "2001:db8:5:6:ffff:1:2:3", "another@example.com"))?.code).toBe("RATE_LIMITED");
    expect(await attempt(limiter, time.now, "2001:db8:5:7::1", "another@example.com")).toBeNull();
    for (let i = 0; i < SIGN_IN_THROTTLE.perAddress; i++) await attempt(limiter, time.now, "198.51.100.80", `mapped${i}@example.com`);
    expect((await attempt(limiter, time.now, "::ffff:198.51.100.80", "another@example.com"))?.code).toBe("RATE_LIMITED");
  });
});

describe("sign-up and password-reset attempts", () => {
  it("count an IPv6 client by its /64", async () => {
    const count = (ip: string, email: string) => countAttempt("signUp", ip, email).then(() => null, (error: AppError) => error);
    for (let i = 0; i < ATTEMPT_LIMITS.signUp.perIp; i++) expect(await count(`2001:db8:77:1::${i + 1}`, `signup${i}@example.com`)).toBeNull();
    expect((await count("2001:db8:77:1:abcd::9", "signup-last@example.com"))?.code).toBe("RATE_LIMITED");
    expect(await count("2001:db8:77:2::1", "signup-other@example.com")).toBeNull();
  });
});
