import { AppError } from "@/lib/errors";
import { createRateLimiter, type RateLimiterService } from "@/lib/ratelimit";
import { processSingleton } from "@/lib/singleton";

const WINDOW_MS = 15 * 60_000;

/** Sign-in and sign-up attempts per window, per client IP and per e-mail address. */
export const ATTEMPT_LIMITS = {
  signIn: { perIp: 30, perEmail: 10 },
  signUp: { perIp: 10, perEmail: 5 },
} as const;

function limiter(): RateLimiterService {
  return processSingleton("auth-attempt-limiter", () => createRateLimiter(process.env, { prefix: "auth" }));
}

/** AUTH_ATTEMPT_SCALE multiplies the limits: end-to-end suites sign up many accounts from one IP. */
function scale(): number {
  const value = Number(process.env.AUTH_ATTEMPT_SCALE ?? 1);
  return Number.isFinite(value) && value >= 1 ? value : 1;
}

/** Counts one attempt; throws RATE_LIMITED when either the IP or the e-mail is over its limit. */
export async function countAttempt(kind: keyof typeof ATTEMPT_LIMITS, ip: string | null, email: string): Promise<void> {
  const limits = ATTEMPT_LIMITS[kind];
  const [byIp, byEmail] = await Promise.all([
    limiter().limit(`${kind}:ip:${ip ?? "unknown"}`, Math.floor(limits.perIp * scale()), WINDOW_MS),
    limiter().limit(`${kind}:email:${email}`, Math.floor(limits.perEmail * scale()), WINDOW_MS),
  ]);
  const refused = [byIp, byEmail].filter((r) => !r.success);
  if (refused.length) {
    const retryAfter = Math.max(1, Math.ceil((Math.max(...refused.map((r) => r.reset)) - Date.now()) / 1000));
    const minutes = Math.ceil(retryAfter / 60);
    throw new AppError("RATE_LIMITED", `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, {
      retryAfter,
    });
  }
}
