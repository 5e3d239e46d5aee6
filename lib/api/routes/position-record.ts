import { z } from "zod";
import type { Position as PositionRow } from "@/lib/db/generated/client";
import { KEY_MODES, keyModeToDb } from "@/lib/keys/mode";
import type { VerifiedKey } from "@/lib/keys/verify-key";
import { legSettlements } from "@/lib/market/leg-settlements";
import { takerFee } from "@/lib/market/taker-fee";
import { accrue, type Accrual } from "@/lib/portfolio/accrual";
import { accrualSchema, positionSchema, type Position } from "@/lib/portfolio/position-schema";
import { ApiError } from "../errors";
import { resourceIdParam } from "../validation";
import type { ApiServices } from "../services";

export const portfolioMetaSchema = z.object({
  mode: z.enum(KEY_MODES).describe("live for svc_sk_live_ keys; test for svc_sk_test_ keys, whose portfolio is the sandbox's and kept apart."),
});

/** Whose portfolio, in which mode: an API key, or the web app's signed-in user acting in live mode. */
export type PortfolioActor = Pick<VerifiedKey, "userId" | "mode">;

export const positionIdParams = z.object({ id: resourceIdParam("The position's `id`, as POST /v1/portfolio/positions returned it.") });

/** The caller's position in the key's mode; another account's, the other mode's or an unknown id is 404. */
export async function findPosition(services: ApiServices, key: PortfolioActor, id: string): Promise<PositionRow> {
  const db = await services.db();
  const row = await db.position.findFirst({ where: { id, userId: key.userId, keyMode: keyModeToDb(key.mode) } });
  if (!row) throw new ApiError("NOT_FOUND", "No such position");
  return row;
}

/** An open position's funding, fees and P&L from opening to `asOf`, from the key's market history. */
export async function accrueRow(services: ApiServices, key: PortfolioActor, row: PositionRow, asOf: Date): Promise<Accrual> {
  const legs = [
    { exchange: row.longExchange, market: row.longMarket },
    { exchange: row.shortExchange, market: row.shortMarket },
  ] as const;
  const [long, short] = await Promise.all(
    legs.map(async (leg) => {
      const [fee, history] = await Promise.all([
        takerFee(services.db, key.mode, leg, asOf),
        legSettlements(services.db, key.mode, row.symbol, leg, row.openedAt, asOf),
      ]);
      return { ...leg, takerFee: fee, settlements: history.map((s) => ({ time: Date.parse(s.time), rate: s.funding_rate })) };
    }),
  );
  return accrue({ notionalUsd: row.notionalUsd, openedAt: row.openedAt.getTime(), asOf: asOf.getTime(), long: long!, short: short! });
}

/** Positions as the API serves them: open ones accrued to now with the current APR of their legs, closed ones as realised. */
export async function toPositions(services: ApiServices, key: PortfolioActor, rows: readonly PositionRow[], now = new Date()) {
  const snapshot = rows.some((r) => r.status === "OPEN") ? await services.opportunities(key.mode) : undefined;
  return Promise.all(
    rows.map(async (row) => {
      if (row.status === "CLOSED") {
        const realised = accrualSchema.parse(row.realised);
        return { row, accrual: realised, position: toPosition(row, realised, null) };
      }
      const accrual = await accrueRow(services, key, row, now);
      const current = snapshot?.items.find(
        (o) => o.symbol === row.symbol && o.long.exchange === row.longExchange && o.short.exchange === row.shortExchange,
      );
      return { row, accrual, position: toPosition(row, accrual, current?.apr ?? null) };
    }),
  );
}

export async function toPositionOf(services: ApiServices, key: PortfolioActor, row: PositionRow): Promise<Position> {
  const [one] = await toPositions(services, key, [row]);
  return one!.position;
}

/** A Position row as the API serves it, parsed through its schema so nothing unlisted leaves. */
function toPosition(row: PositionRow, accrual: Accrual, currentApr: number | null): Position {
  return positionSchema.parse({
    id: row.id,
    status: row.status === "OPEN" ? "open" : "closed",
    symbol: row.symbol,
    long: { exchange: row.longExchange, market: row.longMarket },
    short: { exchange: row.shortExchange, market: row.shortMarket },
    notional_usd: row.notionalUsd,
    opened_at: row.openedAt.toISOString(),
    closed_at: row.closedAt?.toISOString() ?? null,
    entry_apr: row.entryApr,
    current_apr: currentApr,
    note: row.note,
    accrual,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  });
}
