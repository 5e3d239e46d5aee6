import { promisify } from "node:util";
import { brotliCompress, brotliDecompressSync, constants as zlibConstants } from "node:zlib";
import { z } from "zod";
import type { Db } from "@/lib/db";
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
// Quality 1, as the perp set: most of the saving at a fraction of the time, on libuv's threads.
const BROTLI = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } };

const storedItems = z.array(carryOpportunitySchema);

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
 * old set or the new one whole. Answers the new version and how many items it holds.
 */
export async function publishCarrySet(db: Db, input: CarrySetInput): Promise<{ version: number; count: number }> {
  const items = rankCarryOpportunities(input.perps, input.spots, { priceBound: input.priceBound });
  const bytes = await compress(Buffer.from(JSON.stringify(items)), BROTLI);
  const sample = input.sample ?? false;
  const row = await db.carrySet.upsert({
    where: { id: "live" },
    create: { id: "live", version: 1, asOf: input.at, sample, items: bytes },
    update: { version: { increment: 1 }, asOf: input.at, sample, items: bytes },
    select: { version: true },
  });
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

/** The stored carry set, its items decompressed and checked; null before one was published. */
export async function loadCarrySet(db: Db): Promise<LoadedCarrySet | null> {
  const row = await db.carrySet.findUnique({ where: { id: "live" }, select: { version: true, asOf: true, sample: true, items: true } });
  if (!row) return null;
  const items = storedItems.parse(JSON.parse(brotliDecompressSync(row.items).toString("utf8")));
  return { version: row.version, asOf: row.asOf, sample: row.sample, items };
}
