import type { Db } from "@/lib/db";
import type { Prisma } from "@/lib/db/generated/client";
import { packItems } from "./opportunity-set-items";
import type { Opportunity } from "./types";

/**
 * Replaces the live opportunity set in one transaction and bumps its version, so readers (and
 * every server's in-memory snapshot) see the whole old set or the whole new one, never a mix.
 * `alsoInTransaction` commits with the set (an ingestion round marks itself published there).
 *
 * The served items are one gzipped JSON array on the set (what every server loads); the Opportunity rows
 * beside them are the set's queryable columns. Those rows travel as one JSON document expanded by
 * json_to_recordset: 600 assets on 8 venues make ~17k opportunities, and createMany's bound
 * parameters (split into statements of 32k) cost seconds and a gigabyte of heap where one text
 * parameter costs milliseconds.
 */
export async function publishLiveOpportunities(
  db: Db,
  items: readonly Opportunity[],
  source: { asOf: Date; sample: boolean },
  alsoInTransaction: readonly Prisma.PrismaPromise<unknown>[] = [],
): Promise<void> {
  const rows = JSON.stringify(
    items.map((o) => ({
      id: o.id,
      symbol: o.symbol,
      longExchange: o.long.exchange,
      shortExchange: o.short.exchange,
      apr: o.apr,
      netApr: o.net_apr,
      openInterestUsd: o.open_interest_usd,
      updatedAt: o.updated_at,
    })),
  );
  const served = packItems(items);
  await db.$transaction([
    db.opportunity.deleteMany(),
    db.$executeRaw`
      INSERT INTO "Opportunity" (id, symbol, "longExchange", "shortExchange", apr, "netApr", "openInterestUsd", "updatedAt")
      SELECT id, symbol, "longExchange", "shortExchange", apr, "netApr", "openInterestUsd",
             ("updatedAt" AT TIME ZONE 'UTC')::timestamp(3)
      FROM jsonb_to_recordset(${rows}::jsonb) AS r(
        id text, symbol text, "longExchange" text, "shortExchange" text, apr float8, "netApr" float8,
        "openInterestUsd" float8, "updatedAt" timestamptz)`,
    db.opportunitySet.upsert({
      where: { id: "live" },
      create: { id: "live", version: 1, asOf: source.asOf, sample: source.sample, items: served },
      update: { version: { increment: 1 }, asOf: source.asOf, sample: source.sample, items: served },
    }),
    ...alsoInTransaction,
  ]);
}
