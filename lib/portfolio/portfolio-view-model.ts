import type { Actor } from "@/lib/actor";
import type { AppServices } from "@/lib/app-services";
import { cumulativeFunding, type SeriesPosition } from "./funding-series";
import { listPositions, positionLegs } from "./positions";

/** What the /portfolio page shows: every position with its accrual, the totals, and the cumulative funding chart's series. */
export async function portfolioPageView(services: AppServices, actor: Actor, now = new Date()) {
  const { accrued, totals } = await listPositions(services, actor);
  const market = services.market(actor.mode);
  // Each position's settlements over its own life, summed by the pure helper.
  const series: SeriesPosition[] = await Promise.all(
    accrued.map(async ({ row }) => {
      const until = row.closedAt ?? now;
      const [long, short] = await Promise.all(
        positionLegs(row).map(async (leg) =>
          (await market.settlements(row.symbol, leg, row.openedAt, until)).map((s) => ({ time: Date.parse(s.time), rate: s.funding_rate })),
        ),
      );
      return { notionalUsd: row.notionalUsd, openedAt: row.openedAt.getTime(), until: until.getTime(), long: long!, short: short! };
    }),
  );
  return { positions: accrued.map((p) => p.position), totals, series: cumulativeFunding(series) };
}
