import { deletePosition } from "@/lib/portfolio/positions";
import { defineRoute } from "../route";
import { deleteOne, positions } from "./mode-resources";

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
  ...deleteOne(positions, deletePosition),
});
