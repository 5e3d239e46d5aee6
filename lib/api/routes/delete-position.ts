import { z } from "zod";
import { deletePosition } from "@/lib/portfolio/positions";
import { portfolioMetaSchema, positionIdParams } from "../openapi/shared-schemas";
import { defineRoute } from "../route";

// DELETE /v1/portfolio/positions/:id — removes a position, open or closed, from the portfolio.
export const deletePositionRoute = defineRoute({
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
  handler: async ({ actor, params, services }) => ({
    data: await deletePosition(services, actor, params.id),
    meta: { mode: actor.mode },
  }),
});
