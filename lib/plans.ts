import { z } from "zod";
import { positiveInt, readSettings } from "@/lib/config/settings";
import { permissionSchema, TIER_PERMISSIONS, TIERS, tierSchema, tierToDb, type DbTier, type Permission, type Tier } from "@/lib/keys/permissions";

/**
 * What a plan includes, as the enforcement points ask it: each "may this account…" check reads a
 * feature here rather than comparing the tier with "free".
 */
const featuresSchema = z.object({
  api: z.boolean().describe("API keys that call /v1; without it a key reaches only GET /v1/auth/verify"),
  liveData: z.boolean().describe("Live market data in the web app; without it the screener shows data at least `dataDelayMinutes` old"),
  portfolio: z.boolean().describe("Simulations and the portfolio in the web app"),
  webhooks: z.boolean().describe("Webhook endpoints (up to `webhookEndpoints` per mode)"),
  alertRules: z.boolean().describe("Alert rules (up to `alertRules` per mode)"),
  write: z.boolean().describe("The `write` permission: changing the portfolio through the API"),
  export: z.boolean().describe("Funding-history exports (CSV, Parquet), within `exportRangeDays`, `exportsPerDay` and `exportMaxRows`"),
});

const count = z.number().int().min(0);

export const planSchema = z
  .object({
    id: tierSchema,
    name: z.string().min(1),
    summary: z.string().min(1),
    price: z
      .object({
        usdPerMonth: z.number().int().positive().describe("The list price in whole US dollars a month: what the pages show and Stripe's price must charge"),
        stripeSetting: z.string().describe("The setting holding the Stripe recurring price's id; checkout refuses a price whose amount differs from the list price"),
      })
      .nullable()
      .describe("How the plan is sold: null for free, otherwise a monthly subscription at its list price"),
    requestsPerMinute: z
      .number()
      .int()
      .positive()
      .describe("Requests per API key per clock minute; a plan without API access allows this many calls of GET /v1/auth/verify"),
    maxActiveKeys: count.describe("API keys active at once, keys in a roll's grace period included"),
    webhookEndpoints: count.describe("Webhook endpoints per account and mode"),
    alertRules: count.describe("Alert rules per account and mode"),
    streams: count.describe("Concurrent GET /v1/stream connections per account, in each server process"),
    historyDays: z.number().int().positive().describe("How many days of history the plan reads: how far back `from` may reach"),
    exportRangeDays: count.describe("Days one export may span; 0 without exports"),
    exportsPerDay: count.describe("Exports per account per UTC day; 0 without exports"),
    exportMaxRows: count.describe("Settlements one export may hold; 0 without exports"),
    dataDelayMinutes: count.describe("How old the data the web app shows is, at least; 0 for live data"),
    permissions: z.array(permissionSchema).readonly().describe("The API permissions the plan's keys may hold"),
    features: featuresSchema,
  })
  .refine((p) => p.features.api === p.maxActiveKeys > 0, "A plan with API access allows keys, and one without allows none")
  .refine((p) => p.features.api || p.permissions.length === 0, "A plan without API access holds no API permission")
  .refine((p) => p.features.api || p.streams === 0, "A plan without API access opens no streams")
  .refine((p) => p.features.liveData === (p.dataDelayMinutes === 0), "Live data means no delay")
  .refine((p) => p.features.webhooks === p.webhookEndpoints > 0, "Webhooks come with endpoints")
  .refine((p) => p.features.alertRules === p.alertRules > 0, "Alert rules come with a cap above 0")
  .refine((p) => p.features.write === p.permissions.includes("write"), "`write` is the write permission")
  .refine(
    (p) => [p.exportRangeDays, p.exportsPerDay, p.exportMaxRows].every((n) => p.features.export === n > 0),
    "Exports come with a range, a daily count and a row cap above 0, and a plan without them has none",
  )
  .refine((p) => p.exportRangeDays <= p.historyDays, "An export reaches no further back than the plan's history");

export type Plan = z.infer<typeof planSchema>;
export type PlanFeature = keyof Plan["features"];

type PlanRow = Omit<Plan, "summary">;

const ROWS: Record<Tier, PlanRow> = {
  free: {
    id: "free",
    name: "Free",
    price: null,
    // Free keys can only call GET /v1/auth/verify: a small allowance for that.
    requestsPerMinute: 10,
    maxActiveKeys: 0,
    webhookEndpoints: 0,
    alertRules: 0,
    streams: 0,
    historyDays: 7,
    exportRangeDays: 0,
    exportsPerDay: 0,
    exportMaxRows: 0,
    dataDelayMinutes: 15,
    permissions: TIER_PERMISSIONS.free,
    features: { api: false, liveData: false, portfolio: false, webhooks: false, alertRules: false, write: false, export: false },
  },
  pro: {
    id: "pro",
    name: "Pro",
    price: { usdPerMonth: 29, stripeSetting: "STRIPE_PRICE_PRO" },
    requestsPerMinute: 100,
    maxActiveKeys: 10,
    webhookEndpoints: 2,
    alertRules: 5,
    streams: 2,
    historyDays: 90,
    // A month of every venue's hourly settlements for a handful of assets fits in a million rows.
    exportRangeDays: 31,
    exportsPerDay: 20,
    exportMaxRows: 1_000_000,
    dataDelayMinutes: 0,
    permissions: TIER_PERMISSIONS.pro,
    features: { api: true, liveData: true, portfolio: true, webhooks: true, alertRules: true, write: false, export: true },
  },
  desk: {
    id: "desk",
    name: "Desk",
    price: { usdPerMonth: 199, stripeSetting: "STRIPE_PRICE_DESK" },
    requestsPerMinute: 1000,
    // The top plan, with no higher plan's rate to undercut: enough for a key per service and environment.
    maxActiveKeys: 25,
    webhookEndpoints: 10,
    alertRules: 100,
    streams: 20,
    historyDays: 365,
    exportRangeDays: 365,
    exportsPerDay: 200,
    exportMaxRows: 20_000_000,
    dataDelayMinutes: 0,
    permissions: TIER_PERMISSIONS.desk,
    features: { api: true, liveData: true, portfolio: true, webhooks: true, alertRules: true, write: true, export: true },
  },
};

const TIMES = ["", "once", "twice", "three times", "four times", "five times", "six times", "seven times", "eight times", "nine times", "ten times"];

/** The plans' one-line pitches, written from their rows so a number changed there changes here. */
const SUMMARIES: Record<Tier, (rows: Record<Tier, PlanRow>) => string> = {
  free: ({ free }) => `The opportunity screener in the browser, with data delayed by ${free.dataDelayMinutes} minutes. No API access.`,
  pro: () => "Live data and API keys that read opportunities, simulations and your portfolio.",
  desk: ({ pro, desk }) => {
    const ratio = desk.requestsPerMinute / pro.requestsPerMinute;
    return `Everything in Pro, ${TIMES[ratio] ?? `${ratio} times`} the rate limit, and write access to your portfolio through the API.`;
  },
};

/**
 * The plans as the product sells them, cheapest first (TIERS order), checked against planSchema when
 * loaded: every limit, cap and feature the service enforces, and every plan number /docs, the
 * OpenAPI document and the plan pages print, comes from here. Pro's keys together stay within one
 * Desk key's limit (10 × 100/min = 1,000/min), so extra keys do not buy a higher plan's rate; the
 * limit itself stays per key.
 */
export const PLANS: readonly Plan[] = z.array(planSchema).parse(TIERS.map((tier) => ({ ...ROWS[tier], summary: SUMMARIES[tier](ROWS) })));

export function planOf(tier: Tier): Plan {
  return PLANS.find((plan) => plan.id === tier)!;
}

/** The plans that include `feature`, cheapest first. */
export function plansWith(feature: PlanFeature): Plan[] {
  return PLANS.filter((plan) => plan.features[feature]);
}

/** The plan whose web-app data is delayed (by its `dataDelayMinutes`): what signed-out visitors see too. */
export const DELAYED_PLAN: Plan = PLANS.find((plan) => !plan.features.liveData)!;

/** The cheapest plan with live data: the one a delayed view invites an upgrade to. */
export const LIVE_PLAN: Plan = plansWith("liveData")[0]!;

/** The tiers that include `feature`, e.g. for a database filter on the account's tier. */
export function tiersWith(feature: PlanFeature): Tier[] {
  return plansWith(feature).map((plan) => plan.id);
}

/** Whether `tier` is sold for a price (a subscription), rather than free. */
export function isPaid(tier: Tier): boolean {
  return planOf(tier).price !== null;
}

/** The paid tiers as the database spells them, for a query's filter on `User.tier`. */
export function paidDbTiers(): DbTier[] {
  return PLANS.filter((plan) => plan.price !== null).map((plan) => tierToDb(plan.id));
}

/** The database's spelling of those tiers, for a query's filter on `User.tier`. */
export function dbTiersWith(feature: PlanFeature): DbTier[] {
  return tiersWith(feature).map(tierToDb);
}

/** "Pro 2, Desk 10": a number of each plan that includes `feature`, for descriptions written from the table. */
export function perPlan(feature: PlanFeature, value: (plan: Plan) => number | string, plans: readonly Plan[] = PLANS): string {
  return plans
    .filter((plan) => plan.features[feature])
    .map((plan) => `${plan.name} ${value(plan)}`)
    .join(", ");
}

/** "Pro and Desk" (or "Pro or Desk"): the plans' names as a sentence lists them. */
export function planNames(plans: readonly Plan[], conjunction: "and" | "or" = "and"): string {
  const names = plans.map((plan) => plan.name);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} ${conjunction} ${names.at(-1)}` : (names[0] ?? "no");
}

/** "$29 / month"; "$0 / month" for a plan sold for nothing. */
export function listPrice(plan: Pick<Plan, "price">): string {
  return `$${(plan.price?.usdPerMonth ?? 0).toLocaleString("en-US")} / month`;
}

/** One line of the plans' comparison: what it measures and each plan's value, in the plans' order. */
export interface PlanComparisonRow {
  label: string;
  values: string[];
}

const NONE = "—";
const amount = (n: number) => n.toLocaleString("en-US");
const COMPACT = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 3 });
/** "1M" for 1,000,000: short enough for a phone's column, and used only where it is exact. */
const short = (n: number) => (n >= 10_000 && n % 1_000 === 0 ? COMPACT.format(n) : amount(n));
const orNone = (n: number, text = amount(n)) => (n > 0 ? text : NONE);

/**
 * The plans side by side, as the comparison table (home page, plan page) shows them: every cell read from `plans` (pass
 * the numbers this process enforces, configuredPlans), none written twice.
 */
export function planComparison(plans: readonly Plan[]): PlanComparisonRow[] {
  const row = (label: string, value: (plan: Plan) => string): PlanComparisonRow => ({ label, values: plans.map(value) });
  return [
    row("Price", listPrice),
    row("Data in the web app", (p) => (p.features.liveData ? "Live" : `Delayed ${p.dataDelayMinutes} min`)),
    row("Simulations and portfolio", (p) => (p.features.portfolio ? "Yes" : "No")),
    row("API requests per minute, per key", (p) => (p.features.api ? amount(p.requestsPerMinute) : "No API access")),
    row("Active API keys", (p) => orNone(p.maxActiveKeys)),
    row("History", (p) => `${amount(p.historyDays)} days`),
    row("Concurrent streams", (p) => orNone(p.streams)),
    row("Webhook endpoints, per mode", (p) => orNone(p.webhookEndpoints)),
    row("Alert rules, per mode", (p) => orNone(p.alertRules)),
    row("Exports", (p) =>
      p.features.export ? `${amount(p.exportsPerDay)} a day, up to ${amount(p.exportRangeDays)} days and ${short(p.exportMaxRows)} rows each` : NONE,
    ),
  ];
}

export const PERMISSION_LABELS: Record<Permission, string> = {
  "opportunities:read": "Read opportunities",
  "simulations:read": "Run and read simulations",
  "portfolio:read": "Read portfolio",
  write: "Write operations",
};

/**
 * The settings that change the table's numbers in this process (docs/operations.md):
 * RATE_LIMIT_SCALE multiplies every per-key limit (benchmarks and tests only; 1 in production), and
 * STREAM_MAX_PRO / STREAM_MAX_DESK replace the plans' stream counts. Bad values stop start-up.
 */
const settingsSchema = z.object({
  STREAM_MAX_PRO: positiveInt(planOf("pro").streams),
  STREAM_MAX_DESK: positiveInt(planOf("desk").streams),
});

/** Reads a plan's numbers with this process's settings applied: the one place they are applied. */
export type PlanLimits = (tier: Tier) => Plan;

/** The table as this process enforces it, with the settings of `env` applied (read once, at start-up). */
export function configuredPlans(env: NodeJS.ProcessEnv = process.env): PlanLimits {
  const settings = readSettings(settingsSchema, env);
  const scale = rateLimitScale(env);
  const streams: Partial<Record<Tier, number>> = { pro: settings.STREAM_MAX_PRO, desk: settings.STREAM_MAX_DESK };
  const configured = new Map(
    PLANS.map((plan) => [plan.id, { ...plan, requestsPerMinute: requestsPerMinute(plan.id, scale), streams: streams[plan.id] ?? plan.streams }]),
  );
  return (tier) => configured.get(tier)!;
}

/** Requests per minute per API key of `tier`, times `scale` (RATE_LIMIT_SCALE), at least 1. */
export function requestsPerMinute(tier: Tier, scale = 1): number {
  return Math.max(1, Math.floor(planOf(tier).requestsPerMinute * scale));
}

/** RATE_LIMIT_SCALE, read once at start-up; a value that is not a positive number stops the start. */
export function rateLimitScale(env: NodeJS.ProcessEnv = process.env): number {
  if (!env.RATE_LIMIT_SCALE) return 1;
  const scale = Number(env.RATE_LIMIT_SCALE);
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`Invalid configuration: RATE_LIMIT_SCALE must be a positive number, not "${env.RATE_LIMIT_SCALE}"`);
  return scale;
}
