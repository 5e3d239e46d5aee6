import type { Db } from "@/lib/db";
import { directSql, type SqlStatement } from "@/lib/db/direct-sql";
import { packItems } from "./encoding/pack-set";
import type { OpportunityColumns } from "./encoding/columns";
import type { Opportunity } from "../types";

/** Items already in their stored form: a round packs its set while it finishes storing. */
export interface PackedItems {
  packed: Uint8Array<ArrayBuffer>;
}

/**
 * Replaces the live opportunity set in one transaction and bumps its version, so readers (and
 * every server's in-memory snapshot) see the whole old set or the whole new one, never a mix.
 * `alsoInTransaction` commits with the set (an ingestion round marks itself published there, and
 * appends the round's change events: lib/events/live-round-events.ts). Answers the new version.
 *
 * The served items are one packed value on the set (lib/market/opportunity-set-items.ts), what
 * every server loads (lib/market/live-opportunities.ts); nothing else stores the opportunities.
 * Written by the driver itself (lib/db/direct-sql.ts): megabytes at 150,000 items, which Prisma's
 * query compiler would carry through its WebAssembly as base64 text.
 */
export async function publishLiveOpportunities(
  db: Db,
  items: readonly Opportunity[] | OpportunityColumns | PackedItems,
  source: { asOf: Date; sample: boolean },
  alsoInTransaction: readonly SqlStatement[] = [],
): Promise<number> {
  const served = "packed" in items ? items.packed : await packItems(items);
  return directSql(db).transaction(async (tx) => {
    const [written] = await tx.query<{ version: number }>({
      text: `
      INSERT INTO "OpportunitySet" (id, version, "asOf", sample, items, "updatedAt")
      VALUES ('live', 1, $1::timestamp(3), $2, $3, now())
      ON CONFLICT (id) DO UPDATE SET
        version = "OpportunitySet".version + 1, "asOf" = EXCLUDED."asOf", sample = EXCLUDED.sample,
        items = EXCLUDED.items, "updatedAt" = EXCLUDED."updatedAt"
      RETURNING version`,
      values: [source.asOf.toISOString(), source.sample, served],
    });
    if (written?.version === undefined) throw new Error("publishing the opportunity set wrote no row");
    for (const statement of alsoInTransaction) await tx.query(statement);
    return written.version;
  });
}
