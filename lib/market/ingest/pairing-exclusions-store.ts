import type { Db } from "@/lib/db";
import { directSql } from "@/lib/db/direct-sql";
import { logger } from "@/lib/observability/logger";
import { strayPriceLegs } from "../opportunities/rank-opportunities";
import { exclusionsByVenue, storedExclusions, storedExclusionsSchema, type PairingExclusions } from "../model/pairing-exclusions";
import type { MarketSnapshot } from "../model/types";

/**
 * Stores on the round the legs its published set left out by PAIR_PRICE_BOUND (`ranking`: the
 * markets the set was ranked from, batches merged in), so every process's operator console and
 * health details read the same. After the publish and outside the micro-batches' hold: a failure
 * is logged and costs only the list.
 */
export async function recordPairingExclusions(db: Db, roundId: string, ranking: readonly MarketSnapshot[], priceBound: number): Promise<void> {
  try {
    const stored = storedExclusions(priceBound, strayPriceLegs(ranking, priceBound));
    await directSql(db).query({
      text: `UPDATE "IngestionRound" SET "excludedLegs" = $1::jsonb WHERE id = $2`,
      values: [JSON.stringify(stored), roundId],
    });
    const total = Object.values(stored.counts).reduce((sum, n) => sum + n, 0);
    if (total > 0) logger("ingest").info({ roundId, excluded: stored.counts }, `${total} legs paired with none: their price strays from their asset's by more than ${priceBound * 100} %`);
  } catch (error) {
    logger("ingest").error({ err: error, roundId }, "recording the legs left out by the price bound failed");
  }
}

/** The newest published round's exclusions by venue; null before a round stored any (or with the bound never set). */
export async function readPairingExclusions(db: Db): Promise<PairingExclusions | null> {
  const rows = await directSql(db).query<{ id: string; startedAt: Date | string; excludedLegs: unknown }>({
    text: `SELECT id, "startedAt", "excludedLegs" FROM "IngestionRound" WHERE status = 'published' AND "excludedLegs" IS NOT NULL ORDER BY "startedAt" DESC LIMIT 1`,
    values: [],
  });
  const row = rows[0];
  if (!row) return null;
  const stored = storedExclusionsSchema.safeParse(typeof row.excludedLegs === "string" ? JSON.parse(row.excludedLegs) : row.excludedLegs);
  if (!stored.success) return null;
  return exclusionsByVenue(stored.data, { id: row.id, startedAt: new Date(row.startedAt) });
}
