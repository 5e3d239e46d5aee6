import { AppError } from "@/lib/errors";
import { planNames, plansWith, PLANS, type Plan } from "@/lib/plans";

const UPGRADE_PAGE = "/account/plan";

/** 403 for a plan without exports, naming the plans that include them. */
export function assertExportIncluded(plan: Pick<Plan, "name" | "features">): void {
  if (plan.features.export) return;
  throw new AppError("FORBIDDEN", `Funding-history exports are not included in the ${plan.name} plan: upgrade to ${planNames(plansWith("export"), "or")} (${UPGRADE_PAGE})`);
}

/** 403 when an export would hold more settlements than the plan's `exportMaxRows`, with the ways out: a narrower request, or a larger plan. */
export function assertWithinRowCap(rows: number, plan: Pick<Plan, "name" | "exportMaxRows">): void {
  if (rows <= plan.exportMaxRows) return;
  const larger = PLANS.filter((other) => other.exportMaxRows > plan.exportMaxRows).map((other) => `${other.name} ${fmt(other.exportMaxRows)}`);
  const upgrade = larger.length > 0 ? `, or upgrade (${larger.join(", ")}; ${UPGRADE_PAGE})` : "";
  throw new AppError(
    "FORBIDDEN",
    `This export holds ${fmt(rows)} settlements; the ${plan.name} plan exports at most ${fmt(plan.exportMaxRows)} at once: ` +
      `narrow \`exchanges\`, \`symbols\` or the range${upgrade}`,
  );
}

/** 429 once the account has made its plan's `exportsPerDay` exports this UTC day. */
export function exportsPerDayExceeded(plan: Pick<Plan, "name" | "exportsPerDay">, retryAfter: number): AppError {
  return new AppError("RATE_LIMITED", `The ${plan.name} plan includes ${plan.exportsPerDay} exports a day (UTC); the next is possible in ${retryAfter} s`, {
    retryAfter,
  });
}

const fmt = (n: number) => n.toLocaleString("en-US");
