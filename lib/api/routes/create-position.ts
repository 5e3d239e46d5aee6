import { keyModeToDb } from "@/lib/keys/mode";
import { grossApr } from "@/lib/market/apr";
import { positionInputSchema, positionSchema, type Position, type PositionInput } from "@/lib/portfolio/position-schema";
import { resolveLegs } from "../resolve-legs";
import type { ApiRoute } from "../route";
import type { ApiServices } from "../services";
import { withApiKey } from "../with-api-key";
import { portfolioMetaSchema, toPositionOf, type PortfolioActor } from "./position-record";

// POST /v1/portfolio/positions — adds a position to the caller's portfolio of the key's mode.
export const createPositionRoute: ApiRoute = {
  method: "POST",
  path: "/v1/portfolio/positions",
  operationId: "createPortfolioPosition",
  summary: "Add a position to your portfolio",
  description:
    "Name the position by `opportunity_id`, or by `long` and `short` legs ({exchange, symbol}) on two different exchanges; the legs " +
    "must have a current market (an unknown opportunity or leg is a 400 naming the field). `entry_apr` is the opportunity's gross " +
    "APR now, or for explicit legs (short rate × 8760 / short interval − long rate × 8760 / long interval) × 100. `opened_at` " +
    "(default now, never in the future) is when funding starts to accrue. Test keys add to the sandbox portfolio, live keys to the " +
    "live one. Returns the position with 201.",
  tag: "Portfolio",
  permission: "write",
  body: positionInputSchema,
  data: positionSchema,
  meta: portfolioMetaSchema,
  status: 201,
  idempotent: true,
  example: { body: { opportunity_id: "BTC-binance-bybit", notional_usd: 10_000, note: "Hedged with spot" } },
  handler: (services) =>
    withApiKey(services, { permission: "write", body: positionInputSchema, idempotent: true }, async ({ key, body }) => ({
      data: await createPosition(services, key, body),
      meta: { mode: key.mode },
      status: 201,
    })),
};

/** Adds a position to the actor's portfolio (an API key's mode, or the web app's user in live mode). */
export async function createPosition(services: ApiServices, key: PortfolioActor, body: PositionInput): Promise<Position> {
  const { opportunity, long, short } = await resolveLegs(services, key.mode, body);
  const entryApr =
    body.opportunity_id !== undefined
      ? opportunity.apr
      : Math.round(
          grossApr(
            { rate: long.funding_rate, intervalHours: long.funding_interval_hours },
            { rate: short.funding_rate, intervalHours: short.funding_interval_hours },
          ) * 1e6,
        ) /
          1e6 +
        0;
  const db = await services.db();
  const row = await db.position.create({
    data: {
      userId: key.userId,
      keyMode: keyModeToDb(key.mode),
      symbol: opportunity.symbol,
      longExchange: long.exchange,
      longMarket: long.market,
      shortExchange: short.exchange,
      shortMarket: short.market,
      notionalUsd: body.notional_usd,
      openedAt: body.opened_at === undefined ? new Date() : new Date(body.opened_at),
      entryApr,
      note: body.note ?? null,
    },
  });
  return toPositionOf(services, key, row);
}
