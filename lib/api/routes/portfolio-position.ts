import { positionSchema } from "@/lib/portfolio/position-schema";
import type { ApiRoute } from "../route";
import { withApiKey } from "../with-api-key";
import { findPosition, portfolioMetaSchema, positionIdParams, toPositionOf } from "./position-record";

// GET /v1/portfolio/positions/:id — one of the caller's positions with its accrual.
export const portfolioPositionRoute: ApiRoute = {
  method: "GET",
  path: "/v1/portfolio/positions/:id",
  operationId: "getPortfolioPosition",
  summary: "Get one of your positions",
  description:
    "A position as GET /v1/portfolio lists it, with funding accrued to now (or realised, once closed). Another account's position, " +
    "or one of the other key mode's portfolio (live vs test), is 404 NOT_FOUND, as is an id that does not exist.",
  tag: "Portfolio",
  permission: "portfolio:read",
  params: positionIdParams,
  data: positionSchema,
  meta: portfolioMetaSchema,
  example: { params: { id: "POSITION_ID" }, createdBy: "createPortfolioPosition" },
  handler: (services) =>
    withApiKey(services, { permission: "portfolio:read", params: positionIdParams }, async ({ key, params }) => {
      const row = await findPosition(services, key, params.id);
      return { data: await toPositionOf(services, key, row), meta: { mode: key.mode } };
    }),
};
