import { createPosition } from "@/lib/portfolio/positions";
import { positionInputSchema, positionSchema } from "@/lib/portfolio/position-schema";
import { portfolioMetaSchema } from "../openapi/shared-schemas";
import { defineRoute } from "../route";

// POST /v1/portfolio/positions — adds a position to the caller's portfolio of the key's mode.
export const createPositionRoute = defineRoute({
  method: "POST",
  path: "/v1/portfolio/positions",
  operationId: "createPortfolioPosition",
  summary: "Add a position to your portfolio",
  description:
    "Name the position by `opportunity_id`, or by `long` and `short` legs ({exchange, symbol}) on two different exchanges; the legs " +
    "must have a current market (an unknown opportunity or leg is a 400 naming the field). `entry_apr` is the opportunity's gross " +
    "APR now, or for explicit legs (short rate × 8760 / short interval − long rate × 8760 / long interval) × 100. `opened_at` " +
    "(default now, never in the future) is when funding starts to accrue. Test keys add to the sandbox portfolio, live keys to the " +
    "live one. Returns the position with 201 and its path in `Location`.",
  tag: "Portfolio",
  permission: "write",
  body: positionInputSchema,
  data: positionSchema,
  meta: portfolioMetaSchema,
  status: 201,
  location: "/v1/portfolio/positions/:id",
  idempotent: true,
  example: { body: { opportunity_id: "BTC-binance-bybit", notional_usd: 10_000, note: "Hedged with spot" } },
  handler: async ({ actor, body, services }) => ({
    data: await createPosition(services, actor, body),
    meta: { mode: actor.mode },
  }),
});
