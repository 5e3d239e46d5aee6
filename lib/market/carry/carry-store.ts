import type { Db } from "@/lib/db";
import { directSql, type SqlStatement } from "@/lib/db/direct-sql";
import type { MarketSnapshot } from "../model/types";
import { decodeCarryColumns, encodeCarryColumns } from "./carry-bytes";
import type { CarryColumns } from "./carry-columns";
import { rankCarryColumnsInSlices, type CarryOptions } from "./carry-pairs";
import type { SpotLeg } from "./spot-leg";

// The published carry set in the database: one row, CarrySet "live", its items held in columns
// (carry-columns.ts) in the stored form carry-bytes.ts writes, written whole after each round's
// perp set, never patched. `publishCarrySet` / `storeCarrySet` and `loadCarrySet` are the only
// ways in and out.

export interface CarrySetInput {
  perps: readonly MarketSnapshot[];
  spots: readonly SpotLeg[];
  /** When the round's data was observed: the set's as-of. */
  at: Date;
  /** PAIR_PRICE_BOUND, as the perp set pairs by it; undefined holds no pair to a price. */
  priceBound?: number;
  /** Each pair's stored persistence (PersistenceSet.persistenceOf); unknown without. */
  persistence?: CarryOptions["persistence"];
  /** True for the bundled offline sample's set. */
  sample?: boolean;
}

/**
 * Ranks the carry opportunities of a round's perpetuals and spot legs (rankCarryColumns) and
 * replaces the stored carry set with them (`storeCarrySet`). Answers the new version and how many
 * items it holds.
 */
export async function publishCarrySet(db: Db, input: CarrySetInput): Promise<{ version: number; count: number }> {
  const columns = await rankCarryColumnsInSlices(input.perps, input.spots, { priceBound: input.priceBound, persistence: input.persistence });
  return { version: await storeCarrySet(db, columns, { at: input.at, sample: input.sample ?? false }), count: columns.count };
}

/**
 * Replaces the stored carry set with `columns`, bumping its version, in one
 * transaction with `statements` (the carry events' append): a reader sees the old set or the new
 * one whole, and the events exactly when the set they describe. The row's bytes go through the
 * driver itself (lib/db/direct-sql.ts), as the perp set's do, not through Prisma's query compiler.
 * Answers the new version.
 */
export async function storeCarrySet(db: Db, columns: CarryColumns, meta: { at: Date; sample: boolean }, statements: readonly SqlStatement[] = []): Promise<number> {
  const bytes = await encodeCarryColumns(columns);
  return directSql(db).transaction(async (tx) => {
    const [row] = await tx.query<{ version: number }>({
      text: `INSERT INTO "CarrySet" (id, version, "asOf", sample, items, "updatedAt") VALUES ('live', 1, $1::timestamp(3), $2, $3, now())
        ON CONFLICT (id) DO UPDATE SET version = "CarrySet".version + 1, "asOf" = EXCLUDED."asOf", sample = EXCLUDED.sample,
          items = EXCLUDED.items, "updatedAt" = EXCLUDED."updatedAt"
        RETURNING version`,
      values: [meta.at.toISOString(), meta.sample, bytes],
    });
    for (const statement of statements) await tx.query(statement);
    return row!.version;
  });
}

/** The stored carry set's version; null before one was published. */
export async function loadCarryVersion(db: Db): Promise<number | null> {
  const row = await db.carrySet.findUnique({ where: { id: "live" }, select: { version: true } });
  return row?.version ?? null;
}

export interface LoadedCarrySet {
  version: number;
  asOf: Date;
  sample: boolean;
  /** Its lists checked against the item schema, its columns against the lists (carry-bytes.ts). */
  columns: CarryColumns;
}

/**
 * The stored carry set, decoded and checked in slices, the event loop turning between; null before
 * one was published. Every process reads each new set on its serving thread.
 */
export async function loadCarrySet(db: Db): Promise<LoadedCarrySet | null> {
  const [row] = await directSql(db).query<{ version: number; asOf: Date; sample: boolean; items: Uint8Array }>({
    text: `SELECT version, "asOf", sample, items FROM "CarrySet" WHERE id = 'live'`,
    values: [],
  });
  if (!row) return null;
  return { version: row.version, asOf: row.asOf, sample: row.sample, columns: await decodeCarryColumns(row.items) };
}
