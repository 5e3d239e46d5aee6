import { positionSchema, positionUpdateSchema } from "@/lib/portfolio/position-schema";
import { fieldError } from "../resolve-legs";
import type { ApiRoute } from "../route";
import { withApiKey } from "../with-api-key";
import { findPosition, portfolioMetaSchema, positionIdParams, toPositionOf } from "./position-record";

// PATCH /v1/portfolio/positions/:id — changes an open position's note or notional.
export const updatePositionRoute: ApiRoute = {
  method: "PATCH",
  path: "/v1/portfolio/positions/:id",
  operationId: "updatePortfolioPosition",
  summary: "Change a position's note or notional",
  description:
    "Give `note` (null removes it), `notional_usd` or both. A new notional applies to the whole accrual since opening, as if the " +
    "position had always been that size. A closed position cannot be changed (400 naming `status`); another account's position " +
    "or an unknown id is 404. Returns the position as it is now.",
  tag: "Portfolio",
  permission: "write",
  params: positionIdParams,
  body: positionUpdateSchema,
  data: positionSchema,
  meta: portfolioMetaSchema,
  example: { params: { id: "POSITION_ID" }, body: { note: "Rolled to 20k", notional_usd: 20_000 }, createdBy: "createPortfolioPosition" },
  handler: (services) =>
    withApiKey(services, { permission: "write", body: positionUpdateSchema, params: positionIdParams }, async ({ key, body, params }) => {
      const row = await findPosition(services, key, params.id);
      if (row.status === "CLOSED") throw fieldError("status", "The position is closed and can no longer be changed");
      const db = await services.db();
      // The status condition keeps a close racing with this update from being undone.
      const { count } = await db.position.updateMany({
        where: { id: row.id, status: "OPEN" },
        data: { ...(body.note !== undefined && { note: body.note }), ...(body.notional_usd !== undefined && { notionalUsd: body.notional_usd }) },
      });
      if (count === 0) throw fieldError("status", "The position is closed and can no longer be changed");
      const updated = await db.position.findUniqueOrThrow({ where: { id: row.id } });
      return { data: await toPositionOf(services, key, updated), meta: { mode: key.mode } };
    }),
};
