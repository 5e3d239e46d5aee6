import { AppError } from "@/lib/errors";
import type { KeyMode } from "@/lib/keys/mode";
import type { Tier } from "@/lib/keys/permissions";
import { planOf, plansWith } from "@/lib/plans";

/**
 * Who acts on simulations and the portfolio, and in which mode: an API key (its account and its
 * live or test mode), or the web app's signed-in user, who always acts in live mode.
 */
export interface Actor {
  userId: string;
  mode: KeyMode;
}

/** Whether the web app offers simulations and a portfolio: the plan's `portfolio` feature. */
export function canUsePortfolio(user: { tier: Tier }): boolean {
  return planOf(user.tier).features.portfolio;
}

/**
 * The signed-in user as an actor: always the live portfolio. The web app needs no key permission
 * (a Pro account manages its portfolio here without `write`), only a plan that sees live data.
 */
export function webActor(user: { id: string; tier: Tier }): Actor {
  if (!canUsePortfolio(user)) throw new AppError("FORBIDDEN", `Simulations and the portfolio come with the ${plansWith("portfolio")[0]!.name} plan`);
  return { userId: user.id, mode: "live" };
}
