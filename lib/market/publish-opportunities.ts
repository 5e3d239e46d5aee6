import type { Db } from "@/lib/db";
import type { Prisma } from "@/lib/db/generated/client";
import { packItems } from "./opportunity-set-items";
import type { Opportunity } from "./types";

/**
 * Replaces the live opportunity set in one transaction and bumps its version, so readers (and
 * every server's in-memory snapshot) see the whole old set or the whole new one, never a mix.
 * `alsoInTransaction` commits with the set (an ingestion round marks itself published there, and
 * appends the round's change events: lib/events/live-round-events.ts). Answers the new version.
 *
 * The served items are one packed value on the set (lib/market/opportunity-set-items.ts), what
 * every server loads (lib/market/live-opportunities.ts); nothing else stores the opportunities.
 */
export async function publishLiveOpportunities(
  db: Db,
  items: readonly Opportunity[],
  source: { asOf: Date; sample: boolean },
  alsoInTransaction: readonly Prisma.PrismaPromise<unknown>[] = [],
): Promise<number> {
  const served = packItems(items);
  // A statement, not Prisma's upsert: that returns the row written, which read the whole set back.
  const [written] = (await db.$transaction([
    db.$queryRaw<{ version: number }[]>`
      INSERT INTO "OpportunitySet" (id, version, "asOf", sample, items, "updatedAt")
      VALUES ('live', 1, ${source.asOf}, ${source.sample}, ${served}, now())
      ON CONFLICT (id) DO UPDATE SET
        version = "OpportunitySet".version + 1, "asOf" = EXCLUDED."asOf", sample = EXCLUDED.sample,
        items = EXCLUDED.items, "updatedAt" = EXCLUDED."updatedAt"
      RETURNING version`,
    ...alsoInTransaction,
  ])) as [{ version: number }[], ...unknown[]];
  const version = written[0]?.version;
  if (version === undefined) throw new Error("publishing the opportunity set wrote no row");
  return version;
}
