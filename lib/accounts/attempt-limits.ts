import { createHash } from "node:crypto";
import { addressGroup } from "@/lib/config/address-group";
import { AppError } from "@/lib/errors";
import { liveServers } from "@/lib/process/server-instances";
import { createRateLimiter, type RateLimiter, type RateLimiterEnv, type RateLimiterService, type RateLimitResult } from "@/lib/ratelimit";
import { processSingleton } from "@/lib/singleton";

const WINDOW_MS = 15 * 60_000;

/** Sign-up (and password-reset request) attempts per 15-minute window, per client IP (an IPv6 one by its /64) and per e-mail address. */
export const ATTEMPT_LIMITS = {
  signUp: { perIp: 10, perEmail: 5 },
} as const;

export interface SignInThrottle {
  freeAttempts: number;
  firstDelayMs: number;
  maxDelayMs: number;
  perPair: number;
  perAddress: number;
  windowMs: number;
}

/**
 * Sign-in throttling. Nothing here counts per account alone: a stranger's wrong passwords would
 * then lock the owner out. Instead each (account, client address) pair gets a few free attempts
 * and then waits that double (1 s, 2 s, 4 s … up to `maxDelayMs`), and each address has a ceiling
 * across all accounts, which is what stops one machine from spraying passwords. The owner, signing
 * in from their own address, is never slowed by someone else's guesses.
 */
export const SIGN_IN_THROTTLE: Readonly<SignInThrottle> = {
  /** Attempts per (account, address) before any wait: room for a few typos. */
  freeAttempts: 5,
  /** The first wait after the free attempts; each further attempt doubles it. */
  firstDelayMs: 1_000,
  /** The longest wait: past it the address ceiling is what limits a persistent guesser. */
  maxDelayMs: 256_000,
  /** Attempts per (account, address) per `windowMs`, once the waits have reached their longest. */
  perPair: 20,
  /** Attempts per address across all accounts per `windowMs`. */
  perAddress: 30,
  windowMs: WINDOW_MS,
};

export interface LimitRule {
  max: number;
  windowMs: number;
}

/**
 * The progressive delays as sliding-window rules the shared limiter store can enforce (it only
 * counts; it keeps no "last failure" time): rule k admits `freeAttempts + k` attempts per
 * `firstDelayMs · 2^k`. After the free attempts, attempt `free + k + 1` therefore waits for rule
 * k's window to move on, so the waits double from `firstDelayMs` up to `maxDelayMs`; a last rule
 * holds the pair to `perPair` attempts per `windowMs`. Pure.
 */
export function pairRules(throttle: Pick<SignInThrottle, "freeAttempts" | "firstDelayMs" | "maxDelayMs" | "perPair" | "windowMs">, scale = 1): LimitRule[] {
  const free = Math.floor(throttle.freeAttempts * scale);
  const rules: LimitRule[] = [];
  for (let k = 0, windowMs = throttle.firstDelayMs; windowMs <= throttle.maxDelayMs; k++, windowMs *= 2) {
    rules.push({ max: free + k, windowMs });
  }
  // Without a longer rule the ladder would start again at 1 s once its longest window has passed.
  rules.push({ max: Math.max(Math.floor(throttle.perPair * scale), free + rules.length), windowMs: throttle.windowMs });
  return rules;
}

/** Whole seconds until `reset` (epoch ms), at least 1: what `retry_after` and `Retry-After` carry. */
export function secondsUntil(reset: number, now: number): number {
  return Math.max(1, Math.ceil((reset - now) / 1000));
}

/** The refusal text, stating the real wait: seconds below two minutes, whole minutes (rounded up) above. */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  if (retryAfterSeconds < 120) {
    return `Too many attempts. Try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"}.`;
  }
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many attempts. Try again in ${minutes} minutes.`;
}

function refuse(reset: number, now: number): AppError {
  const retryAfter = secondsUntil(reset, now);
  return new AppError("RATE_LIMITED", tooManyAttemptsMessage(retryAfter), { retryAfter });
}

/**
 * The attempt counters' store. While Redis is away each server counts attempts on its own, so it
 * admits only its share of each limit among the live servers, as the /v1 limiter does: the
 * servers together still allow no more guesses than one would.
 */
export function createAttemptLimiter(env: RateLimiterEnv = process.env, servers: () => number = liveServers): RateLimiterService {
  return createRateLimiter(env, { prefix: "auth", algorithm: "slidingWindow", liveServers: servers });
}

function limiter(): RateLimiterService {
  return processSingleton("auth-attempt-limiter", () => createAttemptLimiter());
}

/** AUTH_ATTEMPT_SCALE multiplies the limits: end-to-end suites sign up many accounts from one IP. */
function scale(): number {
  const value = Number(process.env.AUTH_ATTEMPT_SCALE ?? 1);
  return Number.isFinite(value) && value >= 1 ? value : 1;
}

// Limiter keys are stored in clear in Redis; a digest keeps e-mail addresses out of it.
function emailKey(email: string): string {
  return createHash("sha256").update(email).digest("base64url").slice(0, 22);
}

/**
 * Counts one sign-in attempt for `email` from `ip` and throws RATE_LIMITED, with the real wait,
 * when the pair is inside its delay or the address is over its ceiling. The same for addresses
 * with and without an account, so the answer reveals nothing about which exist. The pair's rules
 * run shortest window first and stop at the first refusal (refused calls are not counted), so a
 * guesser retrying too early is not charged in the longer windows; the address ceiling comes last,
 * so a refused guess does not use up the address's allowance either.
 */
export async function countSignInAttempt(
  ip: string | null,
  email: string,
  options: { limiter?: RateLimiter; throttle?: SignInThrottle; scale?: number; now?: () => number } = {},
): Promise<void> {
  const store = options.limiter ?? limiter();
  const throttle = options.throttle ?? SIGN_IN_THROTTLE;
  const factor = options.scale ?? scale();
  const now = options.now ?? Date.now;
  // An IPv6 client by its /64, which one host usually holds whole.
  const address = addressGroup(ip ?? "unknown");
  const pair = `signIn:pair:${emailKey(email)}:${address}`;
  for (const rule of pairRules(throttle, factor)) {
    const result = await store.limit(`${pair}:${rule.windowMs}`, rule.max, rule.windowMs);
    if (!result.success) throw refuse(result.reset, now());
  }
  const ceiling = await store.limit(`signIn:ip:${address}`, Math.floor(throttle.perAddress * factor), throttle.windowMs);
  if (!ceiling.success) throw refuse(ceiling.reset, now());
}

/** Counts one attempt of `kind`; throws RATE_LIMITED, with the real wait, when the IP or the e-mail is over its limit. */
export async function countAttempt(kind: keyof typeof ATTEMPT_LIMITS, ip: string | null, email: string): Promise<void> {
  const limits = ATTEMPT_LIMITS[kind];
  const results: RateLimitResult[] = await Promise.all([
    limiter().limit(`${kind}:ip:${addressGroup(ip ?? "unknown")}`, Math.floor(limits.perIp * scale()), WINDOW_MS),
    limiter().limit(`${kind}:email:${emailKey(email)}`, Math.floor(limits.perEmail * scale()), WINDOW_MS),
  ]);
  const refused = results.filter((r) => !r.success);
  if (refused.length) throw refuse(Math.max(...refused.map((r) => r.reset)), Date.now());
}

/**
 * A signed-in user confirming their current password (to change it): a stolen session must not
 * become a way to guess it. Per account, since only the account's own sessions can try.
 */
export async function countPasswordConfirmation(userId: string): Promise<void> {
  const result = await limiter().limit(`passwordConfirm:user:${userId}`, Math.floor(SIGN_IN_THROTTLE.freeAttempts * scale()), WINDOW_MS);
  if (!result.success) throw refuse(result.reset, Date.now());
}
