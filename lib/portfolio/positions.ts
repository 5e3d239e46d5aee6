import type { Actor } from "@/lib/actor";
import type { AppServices } from "@/lib/app-services";
import type { Db } from "@/lib/db";
import type { Position as PositionRow } from "@/lib/db/generated/client";
import { AppError, fieldError } from "@/lib/errors";
import { keyModeToDb } from "@/lib/keys/mode";
import { grossApr } from "@/lib/market/model/apr";
import { resolveLegs } from "@/lib/market/resolve-legs";
import { roundTo } from "@/lib/round";
import { accrue, totals, type Accrual } from "./accrual";
import { accrualSchema, positionSchema, type Position, type PositionInput, type PositionUpdate, POSITION_STATUSES } from "./position-schema";

// The portfolio's operations, shared by GET/POST/PATCH/DELETE /v1/portfolio… and the web app's
// /portfolio page and /api/portfolio routes. No HTTP here: callers parse input and shape answers.

export type PositionStatus = (typeof POSITION_STATUSES)[number];

/** A stored position with its accrual and its view as the API serves it. */
export interface AccruedPosition {
  row: PositionRow;
  accrual: Accrual;
  position: Position;
}

/** The actor's position in the actor's mode; another account's, the other mode's or an unknown id is 404. */
export async function findPosition(services: AppServices, actor: Actor, id: string): Promise<PositionRow> {
  const db = await services.db();
  const row = await db.position.findFirst({ where: { id, userId: actor.userId, keyMode: keyModeToDb(actor.mode) } });
  if (!row) throw noSuchPosition();
  return row;
}

/** One of the actor's positions as the API serves it. */
export async function getPosition(services: AppServices, actor: Actor, id: string): Promise<Position> {
  return viewPosition(services, actor, await findPosition(services, actor, id));
}

/** The actor's positions (open first, newest opened first), accrued, with the totals of them all. */
export async function listPositions(services: AppServices, actor: Actor, status?: PositionStatus) {
  const db = await services.db();
  const rows = await db.position.findMany({
    where: {
      userId: actor.userId,
      keyMode: keyModeToDb(actor.mode),
      ...(status && { status: status === "open" ? ("OPEN" as const) : ("CLOSED" as const) }),
    },
    orderBy: [{ status: "asc" }, { openedAt: "desc" }, { id: "desc" }],
  });
  const accrued = await accruePositions(services, actor, rows);
  return {
    accrued,
    totals: totals(accrued.map((p) => ({ open: p.row.status === "OPEN", notionalUsd: p.row.notionalUsd, accrual: p.accrual }))),
  };
}

/** Adds a position to the actor's portfolio; its entry APR is the legs' gross APR now. */
export async function createPosition(services: AppServices, actor: Actor, input: PositionInput): Promise<Position> {
  const { opportunity, long, short } = await resolveLegs(services.market(actor.mode), input);
  const entryApr =
    input.opportunity_id !== undefined
      ? opportunity.apr
      : roundTo(
          grossApr(
            { rate: long.funding_rate, intervalHours: long.funding_interval_hours },
            { rate: short.funding_rate, intervalHours: short.funding_interval_hours },
          ),
          6,
        );
  const db = await services.db();
  const row = await db.position.create({
    data: {
      userId: actor.userId,
      keyMode: keyModeToDb(actor.mode),
      symbol: opportunity.symbol,
      longExchange: long.exchange,
      longMarket: long.market,
      shortExchange: short.exchange,
      shortMarket: short.market,
      notionalUsd: input.notional_usd,
      openedAt: input.opened_at === undefined ? new Date() : new Date(input.opened_at),
      entryApr,
      note: input.note ?? null,
    },
  });
  return viewPosition(services, actor, row);
}

/** Changes an open position's note or notional; a closed position cannot be changed. */
export async function updatePosition(services: AppServices, actor: Actor, id: string, update: PositionUpdate): Promise<Position> {
  const closed = () => fieldError("status", "The position is closed and can no longer be changed");
  const row = await findPosition(services, actor, id);
  if (row.status === "CLOSED") throw closed();
  const db = await services.db();
  // The status condition keeps a close racing with this update from being undone.
  const { count } = await db.position.updateMany({
    where: { id: row.id, status: "OPEN" },
    data: {
      ...(update.note !== undefined && { note: update.note }),
      ...(update.notional_usd !== undefined && { notionalUsd: update.notional_usd }),
    },
  });
  if (count === 0) {
    await reload(db, row.id); // gone: 404; still there: it was closed meanwhile
    throw closed();
  }
  return viewPosition(services, actor, await reload(db, row.id));
}

/** Closes one of the actor's positions now, freezing its accrual as realised. */
export async function closePosition(services: AppServices, actor: Actor, id: string): Promise<Position> {
  const closed = () => fieldError("status", "The position is already closed");
  const row = await findPosition(services, actor, id);
  if (row.status === "CLOSED") throw closed();
  const now = new Date();
  const realised = await accruePosition(services, actor, row, now);
  const db = await services.db();
  // Conditional on still being open, so two racing closes realise once.
  const { count } = await db.position.updateMany({
    where: { id: row.id, status: "OPEN" },
    data: { status: "CLOSED", closedAt: now, realised },
  });
  if (count === 0) {
    await reload(db, row.id); // gone: 404; still there: it was closed meanwhile
    throw closed();
  }
  return viewPosition(services, actor, await reload(db, row.id));
}

/** Removes one of the actor's positions, open or closed. */
export async function deletePosition(services: AppServices, actor: Actor, id: string) {
  const row = await findPosition(services, actor, id);
  const db = await services.db();
  const { count } = await db.position.deleteMany({ where: { id: row.id } });
  if (count === 0) throw noSuchPosition(); // deleted by a racing request
  return { id: row.id, deleted: true as const };
}

/** An open position's funding, fees and P&L from opening to `asOf`, from the actor's market history. */
export async function accruePosition(services: AppServices, actor: Actor, row: PositionRow, asOf: Date): Promise<Accrual> {
  const [accrual] = await accrueOpenPositions(services, actor, [row], asOf);
  return accrual!;
}

/** `accruePosition` for many positions, reading all their legs' histories in one batch. */
async function accrueOpenPositions(services: AppServices, actor: Actor, rows: readonly PositionRow[], asOf: Date): Promise<Accrual[]> {
  const requests = rows.flatMap((row) => positionLegs(row).map((leg) => ({ symbol: row.symbol, leg, from: row.openedAt })));
  const histories = await services.market(actor.mode).legHistories(requests, asOf);
  return rows.map((row, i) => {
    const [long, short] = positionLegs(row).map((leg, side) => {
      const history = histories[2 * i + side]!;
      return { ...leg, takerFee: history.takerFee, settlements: history.settlements.map((s) => ({ time: Date.parse(s.time), rate: s.funding_rate })) };
    });
    return accrue({ notionalUsd: row.notionalUsd, openedAt: row.openedAt.getTime(), asOf: asOf.getTime(), long: long!, short: short! });
  });
}

function noSuchPosition() {
  return new AppError("NOT_FOUND", "No such position");
}

/** The row again after a conditional write: a DELETE racing the write may have removed it (404, never a 500). */
async function reload(db: Db, id: string): Promise<PositionRow> {
  const row = await db.position.findUnique({ where: { id } });
  if (!row) throw noSuchPosition();
  return row;
}

/** A stored position's two legs, long first. */
export function positionLegs(row: PositionRow) {
  return [
    { exchange: row.longExchange, market: row.longMarket },
    { exchange: row.shortExchange, market: row.shortMarket },
  ] as const;
}

/** Positions as the API serves them: open ones accrued to now with the current APR of their legs, closed ones as realised. */
async function accruePositions(services: AppServices, actor: Actor, rows: readonly PositionRow[], now = new Date()): Promise<AccruedPosition[]> {
  const open = rows.filter((r) => r.status === "OPEN");
  const [snapshot, accruals] = open.length
    ? await Promise.all([services.market(actor.mode).opportunities(), accrueOpenPositions(services, actor, open, now)])
    : [undefined, []];
  const accrualOf = new Map(open.map((row, i) => [row, accruals[i]!]));
  return rows.map((row) => {
    const accrual = accrualOf.get(row);
    if (accrual === undefined) {
      const realised = accrualSchema.parse(row.realised);
      return { row, accrual: realised, position: toPosition(row, realised, null) };
    }
    const current = snapshot?.groupOf(row.symbol).find((o) => o.long.exchange === row.longExchange && o.short.exchange === row.shortExchange);
    return { row, accrual, position: toPosition(row, accrual, current?.apr ?? null) };
  });
}

async function viewPosition(services: AppServices, actor: Actor, row: PositionRow): Promise<Position> {
  const [one] = await accruePositions(services, actor, [row]);
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
