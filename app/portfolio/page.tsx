import type { Metadata } from "next";
import Link from "next/link";
import { actorFromSession, canUsePortfolio } from "@/lib/actor";
import { plansWith } from "@/lib/plans";
import { appServices } from "@/lib/app-services";
import { requireUser } from "@/lib/auth/session";
import { portfolioPageView } from "@/lib/portfolio/portfolio-view-model";
import { PortfolioView } from "./portfolio-view";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Portfolio — Funding Opportunity Data Service" };

/** The cheapest plan with simulations and the portfolio. */
const PORTFOLIO_PLAN = plansWith("portfolio")[0]!;

export default async function PortfolioPage() {
  const user = await requireUser("/portfolio");
  if (!canUsePortfolio(user)) {
    return (
      <div className="portfolio">
        <h1>Portfolio</h1>
        <p className="notice" role="note">
          The portfolio and simulations work on live data, which comes with the {PORTFOLIO_PLAN.name} plan.{" "}
          <Link href="/account/plan">Upgrade to {PORTFOLIO_PLAN.name}</Link> to track positions here.
        </p>
      </div>
    );
  }

  const view = await portfolioPageView(appServices(), actorFromSession(user));

  return (
    <div className="portfolio">
      <h1>Portfolio</h1>
      <p className="muted">
        Your live positions with the funding they accrued since opening. Add positions from the{" "}
        <Link href="/opportunities">screener</Link>; the same portfolio is served by <Link href="/docs">GET /v1/portfolio</Link> to live
        keys.
      </p>
      <PortfolioView positions={view.positions} totals={view.totals} series={view.series} />
    </div>
  );
}
