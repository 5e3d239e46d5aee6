import { z } from "zod";
import { KEY_MODES, keyModeToDb } from "@/lib/keys/mode";
import { legSettlements } from "@/lib/market/leg-settlements";
import { takerFee } from "@/lib/market/taker-fee";
import type { OpportunityLeg } from "@/lib/market/types";
import { simulateHistorical, type Settlement } from "@/lib/sim/historical";
import { simulateProjected } from "@/lib/sim/projected";
import type { SimulationResult } from "@/lib/sim/result-schema";
import { simulationInputSchema, simulationSchema, type Simulation, type SimulationInput } from "@/lib/sim/simulation-schema";
import { resolveLegs } from "../resolve-legs";
import type { ApiRoute } from "../route";
import type { ApiServices } from "../services";
import { withApiKey } from "../with-api-key";
import type { PortfolioActor } from "./position-record";
import { toSimulation } from "./simulation-record";

const DAY_MS = 86_400_000;

export const simulationMetaSchema = z.object({
  mode: z.enum(KEY_MODES).describe("live for svc_sk_live_ keys; test for svc_sk_test_ keys, whose simulations run on the sandbox and are kept apart."),
});

// POST /v1/simulations — runs a projected or historical simulation of one opportunity and stores it.
export const createSimulationRoute: ApiRoute = {
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
    "naming the field. The simulation is stored (test keys' apart from live keys') and returned with 201.",
  tag: "Simulations",
  permission: "simulations:read",
  body: simulationInputSchema,
  data: simulationSchema,
  meta: simulationMetaSchema,
  status: 201,
  idempotent: true,
  example: { body: { opportunity_id: "BTC-binance-bybit", notional_usd: 10_000, holding_days: 7 } },
  handler: (services) =>
    withApiKey(services, { permission: "simulations:read", body: simulationInputSchema, idempotent: true }, async ({ key, body }) => ({
      data: await runSimulation(services, key, body),
      meta: { mode: key.mode },
      status: 201,
    })),
};

/** Runs a simulation for the actor (an API key, or the web app's user in live mode) and stores it. */
export async function runSimulation(services: ApiServices, key: PortfolioActor, body: SimulationInput): Promise<Simulation> {
  const now = new Date();
  const { opportunity, long, short } = await resolveLegs(services, key.mode, body);
  const [longFee, shortFee] = await Promise.all([takerFee(services.db, key.mode, long, now), takerFee(services.db, key.mode, short, now)]);
  const params = { notionalUsd: body.notional_usd, holdingDays: body.holding_days, feeBps: body.fee_bps, slippageBps: body.slippage_bps };
  let result: SimulationResult;
  if (body.mode === "projected") {
    const projected = (leg: OpportunityLeg, fee: number | null) => ({
      exchange: leg.exchange,
      market: leg.market,
      fundingRate: leg.funding_rate,
      intervalHours: leg.funding_interval_hours,
      takerFee: fee,
    });
    result = simulateProjected(projected(long, longFee), projected(short, shortFee), params);
  } else {
    const from = new Date(now.getTime() - body.holding_days * DAY_MS);
    const settlements = async (leg: OpportunityLeg): Promise<Settlement[]> =>
      (await legSettlements(services.db, key.mode, opportunity.symbol, leg, from, now)).map((r) => ({
        time: Date.parse(r.time),
        rate: r.funding_rate,
        intervalHours: r.funding_interval_hours,
      }));
    const [longHistory, shortHistory] = await Promise.all([settlements(long), settlements(short)]);
    const historical = (leg: OpportunityLeg, fee: number | null, history: Settlement[]) => ({
      exchange: leg.exchange,
      market: leg.market,
      takerFee: fee,
      settlements: history,
    });
    result = simulateHistorical(historical(long, longFee, longHistory), historical(short, shortFee, shortHistory), params, now);
  }
  const input = {
    ...body,
    opportunity_id: body.opportunity_id ?? null,
    symbol: opportunity.symbol,
    fee_bps: body.fee_bps ?? null,
    slippage_bps: body.slippage_bps ?? 0,
  };
  const db = await services.db();
  const row = await db.simulation.create({ data: { userId: key.userId, keyMode: keyModeToDb(key.mode), input, result } });
  return toSimulation(row);
}
