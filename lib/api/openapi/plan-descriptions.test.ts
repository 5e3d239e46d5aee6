import { afterEach, describe, expect, it, vi } from "vitest";
import type * as PlansModule from "@/lib/plans";
import type { Plan } from "@/lib/plans";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The OpenAPI document built with the plans table `change` makes, every module importing lib/plans loaded afresh. */
async function documentWith(change: (plan: Plan) => Plan): Promise<{ document: Json; plans: readonly Plan[] }> {
  vi.resetModules();
  let plans: readonly Plan[] = [];
  vi.doMock("@/lib/plans", async (importOriginal) => {
    const actual = await importOriginal<typeof PlansModule>();
    plans = actual.PLANS.map(change);
    const plansWith = (feature: PlansModule.PlanFeature) => plans.filter((plan) => plan.features[feature]);
    return {
      ...actual,
      PLANS: plans,
      planOf: (tier: Plan["id"]) => plans.find((plan) => plan.id === tier)!,
      plansWith,
      tiersWith: (feature: PlansModule.PlanFeature) => plansWith(feature).map((plan) => plan.id),
      perPlan: (feature: PlansModule.PlanFeature, value: (plan: Plan) => number | string, from: readonly Plan[] = plans) => actual.perPlan(feature, value, from),
    };
  });
  const { API_ROUTES } = await import("@/lib/api/app");
  const { buildOpenApiDocument } = await import("./openapi-document");
  return { document: buildOpenApiDocument(API_ROUTES, "https://funding-data.test") as Json, plans };
}

const description = (document: Json, path: string, method: string): string => document.paths[path][method].description;

afterEach(() => {
  vi.doUnmock("@/lib/plans");
  vi.resetModules();
});

describe("the OpenAPI document's plan numbers", () => {
  it("are the plans table's, in the introduction, the headers and each capped operation", async () => {
    for (const change of [(plan: Plan) => plan, (plan: Plan) => ({ ...plan, requestsPerMinute: plan.requestsPerMinute + 7, webhookEndpoints: plan.webhookEndpoints && plan.webhookEndpoints + 3, alertRules: plan.alertRules && plan.alertRules + 11, streams: plan.streams && plan.streams + 5, exportsPerDay: plan.exportsPerDay && plan.exportsPerDay + 2 })]) {
      const { document, plans } = await documentWith(change);
      const [free, pro, desk] = plans as [Plan, Plan, Plan];
      const intro = document.info.description as string;
      expect(intro).toContain(`${pro.requestsPerMinute} (Pro) or ${desk.requestsPerMinute} (Desk) requests in each`);
      expect(intro).toContain(`a Free account's key may make ${free.requestsPerMinute}, and can call only GET /v1/auth/verify`);
      expect(document.components.headers["X-RateLimit-Limit"].description).toContain(`Pro ${pro.requestsPerMinute}, Desk ${desk.requestsPerMinute}; a Free account's key ${free.requestsPerMinute}`);
      expect(description(document, "/v1/webhook-endpoints", "post")).toContain(`Endpoints per mode: Pro ${pro.webhookEndpoints}, Desk ${desk.webhookEndpoints};`);
      expect(description(document, "/v1/alert-rules", "post")).toContain(`Rules per mode: Pro ${pro.alertRules}, Desk ${desk.alertRules};`);
      expect(description(document, "/v1/stream", "get")).toContain(`by default: Pro ${pro.streams}, Desk ${desk.streams};`);
      expect(description(document, "/v1/exports/funding-rates", "get")).toContain(`at most Pro ${pro.exportsPerDay}, Desk ${desk.exportsPerDay} exports per UTC day`);
    }
  }, 60_000);

  it("name the plans that hold a permission from the table", async () => {
    const { document } = await documentWith((plan) => (plan.id === "pro" ? { ...plan, permissions: [...plan.permissions, "write"], features: { ...plan.features, write: true } } : plan));
    expect(description(document, "/v1/portfolio/positions", "post")).toContain("Needs the `write` permission (Pro, Desk)");
    expect(document.components.responses.FORBIDDEN.description).toContain("needs write, included in the Pro and Desk plans");
  }, 60_000);
});
