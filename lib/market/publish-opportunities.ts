import type { Db } from "@/lib/db";
import type { Prisma } from "@/lib/db/generated/client";
import type { Opportunity } from "./types";

/**
 * Replaces the live opportunity set in one transaction and bumps its version, so readers (and
 * every server's in-memory snapshot) see the whole old set or the whole new one, never a mix.
 * `alsoInTransaction` commits with the set (an ingestion round marks itself published there).
 *
 * The rows travel as one JSON document expanded by json_to_recordset: 600 assets on 8 venues make
 * ~17k opportunities, and createMany's bound parameters (9 per row, split into statements of
 * 32k parameters) cost seconds and a gigabyte of heap where one text parameter costs milliseconds.
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
      payload: o,
      updatedAt: o.updated_at,
    })),
  );
  await db.$transaction([
    db.opportunity.deleteMany(),
    db.$executeRaw`
      INSERT INTO "Opportunity" (id, symbol, "longExchange", "shortExchange", apr, "netApr", "openInterestUsd", payload, "updatedAt")
      SELECT id, symbol, "longExchange", "shortExchange", apr, "netApr", "openInterestUsd", payload,
             ("updatedAt" AT TIME ZONE 'UTC')::timestamp(3)
      FROM jsonb_to_recordset(${rows}::jsonb) AS r(
        id text, symbol text, "longExchange" text, "shortExchange" text, apr float8, "netApr" float8,
        "openInterestUsd" float8, payload jsonb, "updatedAt" timestamptz)`,
    db.opportunitySet.upsert({
      where: { id: "live" },
      create: { id: "live", version: 1, asOf: source.asOf, sample: source.sample },
      update: { version: { increment: 1 }, asOf: source.asOf, sample: source.sample },
    }),
    ...alsoInTransaction,
  ]);
}
