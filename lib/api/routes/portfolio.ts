import { z } from "zod";
import { keyModeToDb } from "@/lib/keys/mode";
import { totals } from "@/lib/portfolio/accrual";
import { portfolioTotalsSchema, positionSchema, POSITION_STATUSES } from "@/lib/portfolio/position-schema";
import { pageSchema } from "../openapi/shared-schemas";
import { pageParams } from "../query";
import type { ApiRoute } from "../route";
import type { ApiServices } from "../services";
import { withApiKey } from "../with-api-key";
import { portfolioMetaSchema, toPositions, type PortfolioActor } from "./position-record";

type PositionStatus = (typeof POSITION_STATUSES)[number];

export const portfolioQuery = z.strictObject({
  status: z.enum(POSITION_STATUSES, `Must be one of: ${POSITION_STATUSES.join(", ")}`).optional().describe("Only open or only closed positions."),
  ...pageParams(100, 50),
});

// GET /v1/portfolio — the caller's positions of the key's mode with funding accrued since opening, and totals.
export const portfolioRoute: ApiRoute = {
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
  data: pageSchema(positionSchema).extend({ totals: portfolioTotalsSchema }),
  meta: portfolioMetaSchema,
  handler: (services) =>
    withApiKey(services, { permission: "portfolio:read", query: portfolioQuery }, async ({ key, query }) => {
      const { accrued, totals: sums } = await portfolioPositions(services, key, query.status);
      const page = accrued.slice(query.offset, query.offset + query.limit);
      return {
        data: {
          items: page.map((p) => p.position),
          total: accrued.length,
          limit: query.limit,
          offset: query.offset,
          has_more: query.offset + page.length < accrued.length,
          totals: sums,
        },
        meta: { mode: key.mode },
      };
    }),
};

/** The actor's positions (open first, newest opened first), accrued, with the totals of them all. */
export async function portfolioPositions(services: ApiServices, key: PortfolioActor, status?: PositionStatus) {
  const db = await services.db();
  const rows = await db.position.findMany({
    where: {
      userId: key.userId,
      keyMode: keyModeToDb(key.mode),
      ...(status && { status: status === "open" ? ("OPEN" as const) : ("CLOSED" as const) }),
    },
    orderBy: [{ status: "asc" }, { openedAt: "desc" }, { id: "desc" }],
  });
  const accrued = await toPositions(services, key, rows);
  return {
    accrued,
    totals: totals(accrued.map((p) => ({ open: p.row.status === "OPEN", notionalUsd: p.row.notionalUsd, accrual: p.accrual }))),
  };
}
