import { z } from "zod";
import { ApiError } from "../errors";
import type { ApiRoute } from "../route";
import type { ApiServices } from "../services";
import { withApiKey } from "../with-api-key";
import { findPosition, portfolioMetaSchema, positionIdParams, type PortfolioActor } from "./position-record";

// DELETE /v1/portfolio/positions/:id — removes a position, open or closed, from the portfolio.
export const deletePositionRoute: ApiRoute = {
  method: "DELETE",
  path: "/v1/portfolio/positions/:id",
  operationId: "deletePortfolioPosition",
  summary: "Delete a position",
  description:
    "Removes the position, open or closed, and its history from the portfolio (closing keeps it; deleting forgets it). Answers the " +
    "deleted position's id. Another account's position, an unknown id or one already deleted is 404.",
  tag: "Portfolio",
  permission: "write",
  params: positionIdParams,
  data: z.object({ id: z.string().describe("The deleted position's id."), deleted: z.literal(true) }),
  meta: portfolioMetaSchema,
  example: { params: { id: "POSITION_ID" }, createdBy: "createPortfolioPosition" },
  handler: (services) =>
    withApiKey(services, { permission: "write", params: positionIdParams }, async ({ key, params }) => ({
      data: await deletePosition(services, key, params.id),
      meta: { mode: key.mode },
    })),
};

/** Removes one of the actor's positions, open or closed. */
export async function deletePosition(services: ApiServices, key: PortfolioActor, id: string) {
  const row = await findPosition(services, key, id);
  const db = await services.db();
  const { count } = await db.position.deleteMany({ where: { id: row.id } });
  if (count === 0) throw new ApiError("NOT_FOUND", "No such position"); // deleted by a racing request
  return { id: row.id, deleted: true as const };
}
