import { closePosition } from "@/lib/portfolio/positions";
import { positionSchema } from "@/lib/portfolio/position-schema";
import { defineRoute } from "../route";
import { inMode, type OneInput, oneOf, positions } from "./mode-resources";

// POST /v1/portfolio/positions/:id/close — closes a position, realising its P&L.
export const closePositionRoute = defineRoute({
  method: "POST",
  path: "/v1/portfolio/positions/:id/close",
  operationId: "closePortfolioPosition",
  summary: "Close a position, realising its P&L",
  description:
    "Closes the position now: its `accrual` (funding since opening, the four fills' fees, net P&L) is frozen as realised and " +
    "`closed_at` set; it stays in the portfolio as closed. Takes no body. An already closed position is a 400 naming `status`; " +
    "another account's position or an unknown id is 404.",
  tag: "Portfolio",
  permission: "write",
  ...oneOf(positions),
  data: positionSchema,
  idempotent: true,
  handler: inMode(({ actor, params, services }: OneInput) => closePosition(services, actor, params.id)),
});
