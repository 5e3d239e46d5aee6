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
 * The served items are one gzipped JSON array on the set, what every server loads
 * (lib/market/live-opportunities.ts); nothing else stores the opportunities.
 */
export async function publishLiveOpportunities(
  db: Db,
  items: readonly Opportunity[],
  source: { asOf: Date; sample: boolean },
  alsoInTransaction: readonly Prisma.PrismaPromise<unknown>[] = [],
): Promise<number> {
  const served = packItems(items);
  const [set] = await db.$transaction([
    db.opportunitySet.upsert({
      where: { id: "live" },
      create: { id: "live", version: 1, asOf: source.asOf, sample: source.sample, items: served },
      update: { version: { increment: 1 }, asOf: source.asOf, sample: source.sample, items: served },
    }),
    ...alsoInTransaction,
  ]);
  return set.version;
}
