import { promisify } from "node:util";
import { brotliCompress, brotliDecompress, constants as zlibConstants } from "node:zlib";
import type { Db } from "@/lib/db";
import { directSql } from "@/lib/db/direct-sql";
import { runInSlices, type Sliced } from "@/lib/time-slices";
import type { MarketSnapshot } from "../model/types";
import { carryOpportunitySchema, type CarryOpportunity } from "./carry-opportunity";
import { rankCarryOpportunities } from "./carry-pairs";
import type { SpotLeg } from "./spot-leg";

// The published carry set in the database: one row, CarrySet "live", its items in set order as
// JSON compressed by brotli. A few thousand items (spot venues × assets × perpetuals), not the
// perp set's 150,000, so the plain JSON form is kept rather than the perp set's columns. Written
// whole after each round's perp set, never patched. `publishCarrySet` and `loadCarrySet` are the
// only ways in and out.

const compress = promisify(brotliCompress);
const decompress = promisify(brotliDecompress);
// Quality 1, as the perp set: most of the saving at a fraction of the time, on libuv's threads.
const BROTLI = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } };

/** Items checked between two pauses of `checkedItems`: ~10 ms of schema checks on a loaded machine. */
const CHECKED_PER_PAUSE = 500;

/** Each stored item checked against the schema, pausing as lib/time-slices.ts says: ~200 ms for 12,000 items, on the serving thread. */
function* checkedItems(stored: unknown): Sliced<CarryOpportunity[]> {
  if (!Array.isArray(stored)) throw new Error("the stored carry set is not a list");
  const items: CarryOpportunity[] = [];
  for (let i = 0; i < stored.length; i++) {
    items.push(carryOpportunitySchema.parse(stored[i]));
    if (i % CHECKED_PER_PAUSE === CHECKED_PER_PAUSE - 1) yield;
  }
  return items;
}

export interface CarrySetInput {
  perps: readonly MarketSnapshot[];
  spots: readonly SpotLeg[];
  /** When the round's data was observed: the set's as-of. */
  at: Date;
  /** PAIR_PRICE_BOUND, as the perp set pairs by it; undefined holds no pair to a price. */
  priceBound?: number;
  /** True for the bundled offline sample's set. */
  sample?: boolean;
}

/**
 * Ranks the carry opportunities of a round's perpetuals and spot legs (rankCarryOpportunities) and
 * replaces the stored carry set with them, bumping its version, in one statement: a reader sees the
 * old set or the new one whole. Answers the new version and how many items it holds. The row's
 * bytes go through the driver itself (lib/db/direct-sql.ts), as the perp set's do, not through
 * Prisma's query compiler.
 */
export async function publishCarrySet(db: Db, input: CarrySetInput): Promise<{ version: number; count: number }> {
  const items = rankCarryOpportunities(input.perps, input.spots, { priceBound: input.priceBound });
  const bytes = await compress(Buffer.from(JSON.stringify(items)), BROTLI);
  const sample = input.sample ?? false;
  const [row] = await directSql(db).query<{ version: number }>({
    text: `
    INSERT INTO "CarrySet" (id, version, "asOf", sample, items, "updatedAt") VALUES ('live', 1, $1::timestamp(3), $2, $3, now())
    ON CONFLICT (id) DO UPDATE SET
      version = "CarrySet".version + 1, "asOf" = EXCLUDED."asOf", sample = EXCLUDED.sample, items = EXCLUDED.items, "updatedAt" = EXCLUDED."updatedAt"
    RETURNING version`,
    values: [input.at.toISOString(), sample, bytes],
  });
  if (row?.version === undefined) throw new Error("publishing the carry set wrote no row");
  return { version: row.version, count: items.length };
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
  /** In set order, each checked against the schema. */
  items: CarryOpportunity[];
}

/**
 * The stored carry set, its items decompressed (on libuv's threads) and checked (in slices, the
 * event loop turning between); null before one was published. Every process reads each new set
 * on its serving thread, so only the JSON parse (~100 ms at 12,000 items) holds it in one piece.
 */
export async function loadCarrySet(db: Db): Promise<LoadedCarrySet | null> {
  const [row] = await directSql(db).query<{ version: number; asOf: Date; sample: boolean; items: Uint8Array }>({
    text: `SELECT version, "asOf", sample, items FROM "CarrySet" WHERE id = 'live'`,
    values: [],
  });
  if (!row) return null;
  const items = await runInSlices(checkedItems(JSON.parse((await decompress(row.items)).toString("utf8"))));
  return { version: row.version, asOf: row.asOf, sample: row.sample, items };
}
