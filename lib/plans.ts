import { TIER_PERMISSIONS, type Permission, type Tier } from "@/lib/keys/permissions";

export interface Plan {
  id: Tier;
  name: string;
  apiAccess: boolean;
  requestsPerMinute: number;
  /**
   * Keys active at once (keys in a roll's grace period count). Pro's keys together stay within one
   * Desk key's limit (10 × 100/min = 1,000/min), so extra keys do not buy a higher plan's rate; the
   * limit itself stays per key.
   */
  maxActiveKeys: number;
  permissions: readonly Permission[];
  summary: string;
}

/** The plans as the product sells them; the API's rules read the same numbers from here. */
export const PLANS: readonly Plan[] = [
  {
    id: "free",
    name: "Free",
    apiAccess: false,
    requestsPerMinute: 0,
    maxActiveKeys: 0,
    permissions: TIER_PERMISSIONS.free,
    summary: "The opportunity screener in the browser, with data delayed by 15 minutes. No API access.",
  },
  {
    id: "pro",
    name: "Pro",
    apiAccess: true,
    requestsPerMinute: 100,
    maxActiveKeys: 10,
    permissions: TIER_PERMISSIONS.pro,
    summary: "Live data and API keys that read opportunities, simulations and your portfolio.",
  },
  {
    id: "desk",
    name: "Desk",
    apiAccess: true,
    requestsPerMinute: 1000,
    // The top plan, with no higher plan's rate to undercut: enough for a key per service and environment.
    maxActiveKeys: 25,
    permissions: TIER_PERMISSIONS.desk,
    summary: "Everything in Pro, ten times the rate limit, and write access to your portfolio through the API.",
  },
];

export function planOf(tier: Tier): Plan {
  return PLANS.find((plan) => plan.id === tier)!;
}

export const PERMISSION_LABELS: Record<Permission, string> = {
  "opportunities:read": "Read opportunities",
  "simulations:read": "Run and read simulations",
  "portfolio:read": "Read portfolio",
  write: "Write operations",
};

/**
 * Requests per minute per API key. Free keys can only call /v1/auth/verify, so they get a small
 * allowance for that. `scale` multiplies every limit: RATE_LIMIT_SCALE, for benchmarks and tests
 * only (docs/operations.md); 1 in production.
 */
export function requestsPerMinute(tier: Tier, scale = 1): number {
  const base = tier === "free" ? FREE_VERIFY_PER_MINUTE : planOf(tier).requestsPerMinute;
  return Math.max(1, Math.floor(base * scale));
}

/** RATE_LIMIT_SCALE, read once at start-up; a value that is not a positive number stops the start. */
export function rateLimitScale(env: NodeJS.ProcessEnv = process.env): number {
  if (!env.RATE_LIMIT_SCALE) return 1;
  const scale = Number(env.RATE_LIMIT_SCALE);
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`Invalid configuration: RATE_LIMIT_SCALE must be a positive number, not "${env.RATE_LIMIT_SCALE}"`);
  return scale;
}

const FREE_VERIFY_PER_MINUTE = 10;
