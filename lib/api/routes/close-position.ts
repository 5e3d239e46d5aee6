import { positionSchema, type Position } from "@/lib/portfolio/position-schema";
import { fieldError } from "../resolve-legs";
import type { ApiRoute } from "../route";
import type { ApiServices } from "../services";
import { withApiKey } from "../with-api-key";
import { accrueRow, findPosition, portfolioMetaSchema, positionIdParams, toPositionOf, type PortfolioActor } from "./position-record";

// POST /v1/portfolio/positions/:id/close — closes a position, realising its P&L.
export const closePositionRoute: ApiRoute = {
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
  params: positionIdParams,
  data: positionSchema,
  meta: portfolioMetaSchema,
  idempotent: true,
  example: { params: { id: "POSITION_ID" }, createdBy: "createPortfolioPosition" },
  handler: (services) =>
    withApiKey(services, { permission: "write", params: positionIdParams, idempotent: true }, async ({ key, params }) => ({
      data: await closePosition(services, key, params.id),
      meta: { mode: key.mode },
    })),
};

/** Closes one of the actor's positions now, freezing its accrual as realised. */
export async function closePosition(services: ApiServices, key: PortfolioActor, id: string): Promise<Position> {
  const row = await findPosition(services, key, id);
  const closed = () => fieldError("status", "The position is already closed");
  if (row.status === "CLOSED") throw closed();
  const now = new Date();
  const realised = await accrueRow(services, key, row, now);
  const db = await services.db();
  // Conditional on still being open, so two racing closes realise once.
  const { count } = await db.position.updateMany({
    where: { id: row.id, status: "OPEN" },
    data: { status: "CLOSED", closedAt: now, realised },
  });
  if (count === 0) throw closed();
  const updated = await db.position.findUniqueOrThrow({ where: { id: row.id } });
  return toPositionOf(services, key, updated);
}
