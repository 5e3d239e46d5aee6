import type { Db } from "@/lib/db";
import type { Prisma } from "@/lib/db/generated/client";
import { packItems } from "./opportunity-set-items";
import type { Opportunity } from "./types";

/**
 * Replaces the live opportunity set in one transaction and bumps its version, so readers (and
 * every server's in-memory snapshot) see the whole old set or the whole new one, never a mix.
 * `alsoInTransaction` commits with the set (an ingestion round marks itself published there).
 *
 * The served items are one packed value on the set (lib/market/opportunity-set-items.ts), what
 * every server loads (lib/market/live-opportunities.ts); nothing else stores the opportunities.
 */
export async function publishLiveOpportunities(
  db: Db,
  items: readonly Opportunity[],
  source: { asOf: Date; sample: boolean },
  alsoInTransaction: readonly Prisma.PrismaPromise<unknown>[] = [],
): Promise<void> {
  const served = packItems(items);
  // A statement, not Prisma's upsert: that returns the row written, which read back the whole set.
  await db.$transaction([
    db.$executeRaw`
      INSERT INTO "OpportunitySet" (id, version, "asOf", sample, items, "updatedAt")
      VALUES ('live', 1, ${source.asOf}, ${source.sample}, ${served}, now())
      ON CONFLICT (id) DO UPDATE SET
        version = "OpportunitySet".version + 1, "asOf" = EXCLUDED."asOf", sample = EXCLUDED.sample,
        items = EXCLUDED.items, "updatedAt" = EXCLUDED."updatedAt"`,
    ...alsoInTransaction,
  ]);
}
