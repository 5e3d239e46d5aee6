import { TIER_PERMISSIONS, type Permission, type Tier } from "@/lib/keys/permissions";

export interface Plan {
  id: Tier;
  name: string;
  apiAccess: boolean;
  requestsPerMinute: number;
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
    permissions: TIER_PERMISSIONS.free,
    summary: "The opportunity screener in the browser, with data delayed by 15 minutes. No API access.",
  },
  {
    id: "pro",
    name: "Pro",
    apiAccess: true,
    requestsPerMinute: 100,
    permissions: TIER_PERMISSIONS.pro,
    summary: "Live data and API keys that read opportunities, simulations and your portfolio.",
  },
  {
    id: "desk",
    name: "Desk",
    apiAccess: true,
    requestsPerMinute: 1000,
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
 * allowance for that. RATE_LIMIT_SCALE multiplies every limit (benchmarks; 1 in production).
 */
export function requestsPerMinute(tier: Tier, env: NodeJS.ProcessEnv = process.env): number {
  const scale = Number(env.RATE_LIMIT_SCALE ?? 1);
  const base = tier === "free" ? FREE_VERIFY_PER_MINUTE : planOf(tier).requestsPerMinute;
  return Math.max(1, Math.floor(base * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}

const FREE_VERIFY_PER_MINUTE = 10;
