import type { Tier } from "@/lib/keys/permissions";
import { planOf } from "@/lib/plans";

export type PaidTier = Exclude<Tier, "free">;

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** The recurring price each paid tier is sold at; a subscription to any other price grants nothing. */
  prices: Record<PaidTier, string>;
  /** How long a past_due subscription keeps its paid tier, counted from when the service first saw it past_due. */
  graceMs: number;
  /** Stripe's API unless STRIPE_API_BASE points the client elsewhere (the tests' stand-in, stripe-mock). */
  api: { host: string; port: number; protocol: "http" | "https" } | null;
}

/** The settings naming each paid plan's Stripe price, as the plans table lists them. */
const PRICE_SETTINGS = { pro: planOf("pro").price!.stripeSetting, desk: planOf("desk").price!.stripeSetting } satisfies Record<PaidTier, string>;

/** The four variables that turn Stripe billing on; all of them, or none. */
export const STRIPE_REQUIRED_VARIABLES = ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", PRICE_SETTINGS.pro, PRICE_SETTINGS.desk] as const;

export const DEFAULT_GRACE_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Stripe billing's configuration, or null when none of its variables is set. A partial set throws
 * rather than quietly running the demo provider, which would hand out paid plans for nothing.
 */
export function readStripeConfig(env: Readonly<Record<string, string | undefined>>): StripeConfig | null {
  const value = (name: string) => env[name]?.trim() || undefined;
  const missing = STRIPE_REQUIRED_VARIABLES.filter((name) => !value(name));
  if (missing.length === STRIPE_REQUIRED_VARIABLES.length) return null;
  if (missing.length) {
    throw new Error(`Invalid configuration: Stripe billing needs ${STRIPE_REQUIRED_VARIABLES.join(", ")}; missing ${missing.join(", ")}`);
  }
  const secretKey = value("STRIPE_SECRET_KEY")!;
  // A publishable key (pk_…) is the usual mix-up; it cannot create sessions and would fail on the first upgrade.
  if (!/^(sk|rk)_/.test(secretKey)) throw new Error("Invalid configuration: STRIPE_SECRET_KEY must be a secret or restricted key (sk_… or rk_…)");
  const webhookSecret = value("STRIPE_WEBHOOK_SECRET")!;
  if (!webhookSecret.startsWith("whsec_")) throw new Error("Invalid configuration: STRIPE_WEBHOOK_SECRET must be a webhook signing secret (whsec_…)");
  const prices = { pro: value(PRICE_SETTINGS.pro)!, desk: value(PRICE_SETTINGS.desk)! };
  if (prices.pro === prices.desk) throw new Error(`Invalid configuration: ${PRICE_SETTINGS.pro} and ${PRICE_SETTINGS.desk} must be different prices`);
  return { secretKey, webhookSecret, prices, graceMs: graceDays(value("STRIPE_GRACE_DAYS")) * DAY_MS, api: apiBase(value("STRIPE_API_BASE")) };
}

function graceDays(text: string | undefined): number {
  if (text === undefined) return DEFAULT_GRACE_DAYS;
  const days = Number(text);
  if (!Number.isFinite(days) || days < 0) throw new Error(`Invalid configuration: STRIPE_GRACE_DAYS must be a number of days ≥ 0, not "${text}"`);
  return days;
}

function apiBase(text: string | undefined): StripeConfig["api"] {
  if (text === undefined) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`Invalid configuration: STRIPE_API_BASE must be an http(s) URL, not "${text}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`Invalid configuration: STRIPE_API_BASE must be an http(s) URL, not "${text}"`);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === "http" ? 80 : 443, protocol };
}

/** The paid tier a price id is sold as, or null for a price this service does not sell. */
export function tierOfPrice(config: Pick<StripeConfig, "prices">, priceId: string | null | undefined): PaidTier | null {
  if (priceId === config.prices.desk) return "desk";
  if (priceId === config.prices.pro) return "pro";
  return null;
}
