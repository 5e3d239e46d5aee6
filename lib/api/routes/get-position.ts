import { getPosition } from "@/lib/portfolio/positions";
import { positionSchema } from "@/lib/portfolio/position-schema";
import { defineRoute } from "../route";
import { getOne, positions } from "./mode-resources";

// GET /v1/portfolio/positions/:id — one of the caller's positions with its accrual.
export const getPositionRoute = defineRoute({
  method: "GET",
  path: "/v1/portfolio/positions/:id",
  operationId: "getPortfolioPosition",
  summary: "Get one of your positions",
  description:
    "A position as GET /v1/portfolio lists it, with funding accrued to now (or realised, once closed). Another account's position, " +
    "or one of the other key mode's portfolio (live vs test), is 404 NOT_FOUND, as is an id that does not exist.",
  tag: "Portfolio",
  permission: "portfolio:read",
  ...getOne(positions, positionSchema, getPosition),
});
