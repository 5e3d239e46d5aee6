import { updatePosition } from "@/lib/portfolio/positions";
import { positionSchema, positionUpdateSchema } from "@/lib/portfolio/position-schema";
import { defineRoute } from "../route";
import { positions, updateOne } from "./mode-resources";

// PATCH /v1/portfolio/positions/:id — changes an open position's note or notional.
export const updatePositionRoute = defineRoute({
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
  ...updateOne(positions, positionUpdateSchema, positionSchema, { note: "Rolled to 20k", notional_usd: 20_000 }, updatePosition),
});
