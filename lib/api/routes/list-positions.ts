import { z } from "zod";
import { listPositions } from "@/lib/portfolio/positions";
import { portfolioTotalsSchema, positionSchema, POSITION_STATUSES } from "@/lib/portfolio/position-schema";
import { pageParams } from "@/lib/query-params";
import { pageSchema, portfolioMetaSchema } from "../openapi/shared-schemas";
import { pageOf } from "@/lib/pagination";
import { defineRoute } from "../route";

const portfolioQuery = z.strictObject({
  status: z.enum(POSITION_STATUSES, `Must be one of: ${POSITION_STATUSES.join(", ")}`).optional().describe("Only open or only closed positions."),
  ...pageParams(100, 50),
});

// GET /v1/portfolio — the caller's positions of the key's mode with funding accrued since opening, and totals.
export const listPositionsRoute = defineRoute({
  method: "GET",
  path: "/v1/portfolio",
  operationId: "listPortfolioPositions",
  summary: "Your portfolio: positions with accrued funding and P&L",
  description:
    "The positions of the key's account (live keys the live portfolio, test keys the sandbox's), open ones first, newest opened first. " +
    "Each open position's `accrual` counts the funding settlements recorded since `opened_at` (short leg +rate × notional, long leg " +
    "−rate × notional), the fees of its four taker fills (opening and closing both legs at each venue's taker fee) and the net P&L " +
    "closing now would realise; `current_apr` is the gross APR of the current opportunity with the same legs, or null. Closed " +
    "positions show the P&L realised when they were closed. `totals` sum every position matching `status`, not just this page.",
  tag: "Portfolio",
  permission: "portfolio:read",
  query: portfolioQuery,
  data: pageSchema(positionSchema, portfolioQuery).extend({ totals: portfolioTotalsSchema }),
  meta: portfolioMetaSchema,
  handler: async ({ actor, query, services }) => {
    const { accrued, totals } = await listPositions(services, actor, query.status);
    return {
      data: { ...pageOf(accrued.map((p) => p.position), query), totals },
      meta: { mode: actor.mode },
    };
  },
});
