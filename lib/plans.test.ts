import { describe, expect, it } from "vitest";
import { TIERS } from "@/lib/keys/permissions";
import {
  configuredPlans,
  dbTiersWith,
  DELAYED_PLAN,
  isPaid,
  LIVE_PLAN,
  listPrice,
  paidDbTiers,
  planComparison,
  perPlan,
  planNames,
  planOf,
  PLANS,
  planSchema,
  plansWith,
  requestsPerMinute,
  tiersWith,
  type Plan,
  type PlanFeature,
} from "./plans";

const FEATURES = Object.keys(PLANS[0]!.features) as PlanFeature[];
const CAPS = ["maxActiveKeys", "webhookEndpoints", "alertRules", "streams", "historyDays", "exportRangeDays", "exportsPerDay", "exportMaxRows"] as const;
/** Consecutive plans, cheaper first. */
const steps = PLANS.slice(1).map((higher, i) => [PLANS[i]!, higher] as const);

describe("the plans table", () => {
  it("lists every tier once, cheapest first, each valid against its schema", () => {
    expect(PLANS.map((plan) => plan.id)).toEqual([...TIERS]);
    for (const plan of PLANS) expect(planSchema.safeParse(plan).success, plan.id).toBe(true);
  });

  it("keeps a Pro account's keys together within one Desk key's limit, so more keys never buy a higher plan's rate", () => {
    expect(planOf("pro").maxActiveKeys * requestsPerMinute("pro")).toBeLessThanOrEqual(requestsPerMinute("desk"));
    for (const [lower, higher] of steps.filter(([lower]) => lower.features.api)) {
      expect(lower.maxActiveKeys * lower.requestsPerMinute, `${lower.id} → ${higher.id}`).toBeLessThanOrEqual(higher.requestsPerMinute);
    }
  });

  it("never gives a higher plan less: caps, the rate of API plans, features and permissions grow with the price", () => {
    for (const [lower, higher] of steps) {
      const step = `${lower.id} → ${higher.id}`;
      for (const cap of CAPS) expect(higher[cap], `${step} ${cap}`).toBeGreaterThanOrEqual(lower[cap]);
      if (lower.features.api) expect(higher.requestsPerMinute, step).toBeGreaterThan(lower.requestsPerMinute);
      expect(higher.dataDelayMinutes, step).toBeLessThanOrEqual(lower.dataDelayMinutes);
      for (const feature of FEATURES) if (lower.features[feature]) expect(higher.features[feature], `${step} ${feature}`).toBe(true);
      for (const permission of lower.permissions) expect(higher.permissions, step).toContain(permission);
    }
    for (const [lower, higher] of steps) expect(higher.price!.usdPerMonth, `${lower.id} → ${higher.id}`).toBeGreaterThan(lower.price?.usdPerMonth ?? 0);
    expect(isPaid("free")).toBe(false);
    expect(PLANS.filter((plan) => plan.id !== "free").every((plan) => isPaid(plan.id))).toBe(true);
  });

  it("refuses a row whose features contradict its numbers", () => {
    const pro = planOf("pro");
    const contradictions: Partial<Plan>[] = [
      { webhookEndpoints: 0 },
      { alertRules: 0 },
      { maxActiveKeys: 0 },
      { dataDelayMinutes: 15 },
      { features: { ...pro.features, write: true } },
      { requestsPerMinute: 0 },
      { exportsPerDay: 0 },
      { exportMaxRows: 0 },
      { exportRangeDays: pro.historyDays + 1 },
      { features: { ...pro.features, export: false } },
    ];
    for (const change of contradictions) expect(planSchema.safeParse({ ...pro, ...change }).success, JSON.stringify(change)).toBe(false);
    const free = planOf("free");
    expect(planSchema.safeParse({ ...free, streams: 1 }).success).toBe(false);
    expect(planSchema.safeParse({ ...free, permissions: ["opportunities:read"] }).success).toBe(false);
    expect(planSchema.safeParse({ ...free, exportsPerDay: 1 }).success).toBe(false);
  });

  it("writes the summaries from the rows' numbers", () => {
    expect(planOf("free").summary).toContain(`delayed by ${planOf("free").dataDelayMinutes} minutes`);
    expect(planOf("desk").summary).toContain("ten times the rate limit");
  });

  it("answers which plans include a feature, for checks, queries and descriptions", () => {
    expect(tiersWith("webhooks")).toEqual(["pro", "desk"]);
    expect(tiersWith("write")).toEqual(["desk"]);
    expect(dbTiersWith("alertRules")).toEqual(["PRO", "DESK"]);
    expect(paidDbTiers()).toEqual(["PRO", "DESK"]);
    expect(perPlan("webhooks", (plan) => plan.webhookEndpoints)).toBe(`Pro ${planOf("pro").webhookEndpoints}, Desk ${planOf("desk").webhookEndpoints}`);
    expect(planNames(plansWith("api"))).toBe("Pro and Desk");
    expect(planNames(plansWith("api"), "or")).toBe("Pro or Desk");
    expect(planNames(PLANS)).toBe("Free, Pro and Desk");
    expect(planNames(plansWith("write"))).toBe("Desk");
  });
});

/** An environment of only `vars`, as a process sees it. */
const env = (vars: Record<string, string>): NodeJS.ProcessEnv => ({ NODE_ENV: "test", ...vars });

describe("configuredPlans", () => {
  it("is the table itself without settings", () => {
    const plans = configuredPlans(env({}));
    for (const plan of PLANS) expect(plans(plan.id)).toEqual(plan);
  });

  it("applies RATE_LIMIT_SCALE to every plan's rate, at least 1 a minute, and nothing else", () => {
    const scaled = configuredPlans(env({ RATE_LIMIT_SCALE: "1000" }));
    for (const plan of PLANS) expect(scaled(plan.id)).toEqual({ ...plan, requestsPerMinute: plan.requestsPerMinute * 1000 });
    expect(configuredPlans(env({ RATE_LIMIT_SCALE: "0.0001" }))("pro").requestsPerMinute).toBe(1);
    expect(() => configuredPlans(env({ RATE_LIMIT_SCALE: "-1" }))).toThrow(/RATE_LIMIT_SCALE must be a positive number/);
  });

  it("replaces the stream counts with STREAM_MAX_PRO and STREAM_MAX_DESK, leaving a plan without API access at none", () => {
    const plans = configuredPlans(env({ STREAM_MAX_PRO: "5", STREAM_MAX_DESK: "50" }));
    expect([plans("free").streams, plans("pro").streams, plans("desk").streams]).toEqual([0, 5, 50]);
    expect(configuredPlans(env({ STREAM_MAX_PRO: "" }))("pro").streams).toBe(planOf("pro").streams);
    expect(() => configuredPlans(env({ STREAM_MAX_DESK: "0" }))).toThrow(/STREAM_MAX_DESK/);
  });
});

describe("the plans' comparison", () => {
  const cells = (plans: readonly Plan[]) => Object.fromEntries(planComparison(plans).map((row) => [row.label, row.values]));

  it("states each plan's list price, delay, rate, caps and exports from the table, in the plans' order", () => {
    const pro = planOf("pro");
    const table = cells(PLANS);
    expect(table["Price"]).toEqual(["$0 / month", `$${pro.price!.usdPerMonth} / month`, `$${planOf("desk").price!.usdPerMonth} / month`]);
    expect(table["Data in the web app"]).toEqual([`Delayed ${planOf("free").dataDelayMinutes} min`, "Live", "Live"]);
    expect(table["API requests per minute, per key"]).toEqual(["No API access", "100", "1,000"]);
    expect(table["Active API keys"]).toEqual(["—", String(pro.maxActiveKeys), String(planOf("desk").maxActiveKeys)]);
    expect(table["History"]).toEqual(PLANS.map((plan) => `${plan.historyDays} days`));
    expect(table["Exports"]![0]).toBe("—");
    expect(table["Exports"]![1]).toBe(`${pro.exportsPerDay} a day, up to ${pro.exportRangeDays} days and 1M rows each`);
    expect(table["Exports"]![1]).toContain("1M rows");
    expect(table["Exports"]![2]).toContain(`${planOf("desk").exportMaxRows / 1_000_000}M rows`);
    for (const row of planComparison(PLANS)) expect(row.values, row.label).toHaveLength(PLANS.length);
  });

  it("shows the numbers it is given, so a server's settings (STREAM_MAX_PRO) reach the page", () => {
    const plans = configuredPlans(env({ STREAM_MAX_PRO: "7" }));
    expect(cells(TIERS.map(plans))["Concurrent streams"]).toEqual(["—", "7", String(planOf("desk").streams)]);
  });

  it("writes a price with thousands separators, and a free plan's as $0", () => {
    expect(listPrice({ price: { usdPerMonth: 1500, stripeSetting: "X" } })).toBe("$1,500 / month");
    expect(listPrice({ price: null })).toBe("$0 / month");
  });

  it("shortens a row count only where the short form is exact", () => {
    const rows = (exportMaxRows: number) => cells([{ ...planOf("pro"), exportMaxRows }])["Exports"]![0];
    expect(rows(1_500_000)).toContain("1.5M rows");
    expect(rows(1_234_567)).toContain("1,234,567 rows");
    expect(rows(5_000)).toContain("5,000 rows");
  });
});

describe("the delayed and the live plan", () => {
  it("are the plan without live data, delayed, and the cheapest with it", () => {
    expect(DELAYED_PLAN.features.liveData).toBe(false);
    expect(DELAYED_PLAN.dataDelayMinutes).toBeGreaterThan(0);
    expect(LIVE_PLAN).toBe(PLANS.find((plan) => plan.features.liveData));
    expect(LIVE_PLAN.dataDelayMinutes).toBe(0);
  });
});
