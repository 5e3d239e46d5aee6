import { AppError } from "@/lib/errors";
import { PLANS, type Plan } from "@/lib/plans";

const DAY_MS = 86_400_000;

/** The oldest moment `plan` reads history from at `now`: its `historyDays` back. */
export function earliestReadable(plan: Pick<Plan, "historyDays">, now: Date): Date {
  return new Date(now.getTime() - plan.historyDays * DAY_MS);
}

/**
 * 403 when a range starts before what the plan reads (its `historyDays`), naming the plan's depth,
 * the earliest `from` it allows and the plans that read further back.
 */
export function assertWithinHistory(from: Date, plan: Pick<Plan, "id" | "name" | "historyDays">, now = new Date()): void {
  const earliest = earliestReadable(plan, now);
  if (from >= earliest) return;
  const deeper = PLANS.filter((other) => other.historyDays > plan.historyDays).map((other) => `${other.name} reads ${other.historyDays} days`);
  const upgrade = deeper.length > 0 ? `; ${deeper.join(", ")} (upgrade at /account/plan)` : "";
  throw new AppError(
    "FORBIDDEN",
    `The ${plan.name} plan reads ${plan.historyDays} days of history: \`from\` may be ${earliest.toISOString()} at the earliest${upgrade}`,
  );
}
