import type { Metadata } from "next";
import Link from "next/link";
import { portfolioPositions } from "@/lib/api/routes/portfolio";
import { apiServices } from "@/lib/api/services";
import { requireUser } from "@/lib/auth/session";
import { legSettlements } from "@/lib/market/leg-settlements";
import { cumulativeFunding, type SeriesPosition } from "@/lib/portfolio/funding-series";
import { canUsePortfolio, webActor } from "@/lib/portfolio/web-actor";
import { PortfolioView } from "./portfolio-view";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Portfolio — Funding Opportunity Data Service" };

export default async function PortfolioPage() {
  const user = await requireUser("/portfolio");
  if (!canUsePortfolio(user)) {
    return (
      <div className="portfolio">
        <h1>Portfolio</h1>
        <p className="notice" role="note">
          The portfolio and simulations work on live data, which comes with the Pro plan.{" "}
          <Link href="/account/plan">Upgrade to Pro</Link> to track positions here.
        </p>
      </div>
    );
  }

  const services = apiServices();
  const actor = webActor(user);
  const now = new Date();
  const { accrued, totals } = await portfolioPositions(services, actor);
  // The chart's series: each position's settlements over its own life, summed by the pure helper.
  const series: SeriesPosition[] = await Promise.all(
    accrued.map(async ({ row }) => {
      const until = row.closedAt ?? now;
      const [long, short] = await Promise.all(
        [
          { exchange: row.longExchange, market: row.longMarket },
          { exchange: row.shortExchange, market: row.shortMarket },
        ].map(async (leg) =>
          (await legSettlements(services.db, actor.mode, row.symbol, leg, row.openedAt, until)).map((s) => ({
            time: Date.parse(s.time),
            rate: s.funding_rate,
          })),
        ),
      );
      return { notionalUsd: row.notionalUsd, openedAt: row.openedAt.getTime(), until: until.getTime(), long: long!, short: short! };
    }),
  );

  return (
    <div className="portfolio">
      <h1>Portfolio</h1>
      <p className="muted">
        Your live positions with the funding they accrued since opening. Add positions from the{" "}
        <Link href="/opportunities">screener</Link>; the same portfolio is served by <Link href="/docs">GET /v1/portfolio</Link> to live
        keys.
      </p>
      <PortfolioView positions={accrued.map((p) => p.position)} totals={totals} series={cumulativeFunding(series)} />
    </div>
  );
}
