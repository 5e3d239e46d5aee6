import { ApiError } from "@/lib/api/errors";
import type { PortfolioActor } from "@/lib/api/routes/position-record";
import type { SessionUser } from "@/lib/auth/session";

/** Whether the web app offers simulations and a portfolio: on the paid plans, which see live data. */
export function canUsePortfolio(user: Pick<SessionUser, "tier">): boolean {
  return user.tier !== "free";
}

/**
 * The signed-in user as the portfolio and simulation services' actor: always the live portfolio.
 * The web app needs no key permission (a Pro account manages its portfolio here without `write`),
 * only a plan that sees live data.
 */
export function webActor(user: SessionUser): PortfolioActor {
  if (!canUsePortfolio(user)) throw new ApiError("FORBIDDEN", "Simulations and the portfolio come with the Pro plan");
  return { userId: user.id, mode: "live" };
}
