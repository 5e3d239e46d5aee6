import { simulationInputSchema, simulationSchema } from "@/lib/sim/simulation-schema";
import { runSimulation } from "@/lib/sim/simulations";
import { simulationMetaSchema } from "../openapi/shared-schemas";
import { defineRoute } from "../route";

// POST /v1/simulations — runs a projected or historical simulation of one opportunity and stores it.
export const createSimulationRoute = defineRoute({
  method: "POST",
  path: "/v1/simulations",
  operationId: "createSimulation",
  summary: "Simulate a position's funding P&L",
  description:
    "Name the position by `opportunity_id`, or by `long` and `short` legs ({exchange, symbol}) on two different exchanges. " +
    "`projected` holds each leg's current funding rate constant over `holding_days`, each leg settling on its own venue's interval " +
    "(floor(hours / interval) settlements); `historical` replays the settlements recorded over the last `holding_days` days " +
    "(the sandbox keeps 7 days) and adds a daily series of cumulative P&L, the worst drawdown and the share of settlements that paid. " +
    "The short leg earns +rate × notional per settlement and the long leg −rate × notional. Fees are four taker fills (open and close, " +
    "both legs) at each venue's taker fee, or `fee_bps` when given; `slippage_bps` applies to the same four fills. " +
    "`net_apr` = net P&L / notional × 365 / holding_days × 100. An unknown opportunity or a leg without a current market is a 400 " +
    "naming the field. The simulation is stored (test keys' apart from live keys') and returned with 201, its path in `Location`.\n\n" +
    "A carry opportunity's id (GET /v1/carry-opportunities) is simulated as a pair whose spot side is the long leg of a `spot_perp` " +
    "(held: no funding) or the short leg of a `perp_spot` (borrowed: its borrow rate charged every hour, a 1 h leg of rate −borrow_apr / 8760). " +
    "Carry simulations take fixed costs (`costs=order_books` is a 400: the carry quote prices their books). A `historical` carry " +
    "replays the perpetual's recorded settlements and, for a `perp_spot`, the borrow rate its spot venue stated in each hour as stored " +
    "hourly (charged at the hour's end; an hour not stored charges nothing, as a settlement not recorded pays nothing, so the short " +
    "leg's `settlements` counts the hours covered). Borrow rates are stored from this service's own rounds (no venue serves margin " +
    "borrow history without an account's key), so history reaches back as far as it has been reading the spot venue.",
  tag: "Simulations",
  permission: "simulations:read",
  body: simulationInputSchema,
  data: simulationSchema,
  meta: simulationMetaSchema,
  status: 201,
  location: "/v1/simulations/:id",
  idempotent: true,
  example: { body: { opportunity_id: "BTC-binance-bybit", notional_usd: 10_000, holding_days: 7 } },
  handler: async ({ actor, body, services }) => ({
    data: await runSimulation(services, actor, body),
    meta: { mode: actor.mode },
  }),
});
