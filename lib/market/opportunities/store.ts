import type { Db } from "@/lib/db";
import { directSql, type SqlStatement } from "@/lib/db/direct-sql";
import type { Prisma } from "@/lib/db/generated/client";
import type { Opportunity } from "../model/types";
import { columnsOf, itemsOf, type OpportunityColumns } from "./encoding/columns";
import { decodeColumns, encodeColumns } from "./encoding/set-bytes";

// The published opportunity set in the database: one row, OpportunitySet "live", its items one
// value in the form encoding/set-bytes.ts writes. `publish` and `load` are the only ways in and
// out; nothing outside this folder reads or writes those bytes.

/** A set already in its stored form: a round packs its set while it finishes storing. */
export interface PackedSet {
  packed: Uint8Array<ArrayBuffer>;
}

/** The set in its stored form, laid out on this thread and compressed on libuv's. */
export async function pack(set: readonly Opportunity[] | OpportunityColumns): Promise<PackedSet> {
  return { packed: await encodeColumns(Array.isArray(set) ? columnsOf(set) : (set as OpportunityColumns)) };
}

/**
 * Replaces the live opportunity set in one transaction and bumps its version, so readers (and
 * every server's in-memory snapshot) see the whole old set or the whole new one, never a mix.
 * `alsoInTransaction` commits with the set (an ingestion round marks itself published there, and
 * appends the round's change events: lib/events/live-round-events.ts). Answers the new version.
 * Written by the driver itself (lib/db/direct-sql.ts): megabytes at 150,000 items, which Prisma's
 * query compiler would carry through its WebAssembly as base64 text.
 */
export async function publish(
  db: Db,
  set: readonly Opportunity[] | OpportunityColumns | PackedSet,
  source: { asOf: Date; sample: boolean },
  alsoInTransaction: readonly SqlStatement[] = [],
): Promise<number> {
  const { packed } = "packed" in set ? set : await pack(set);
  return directSql(db).transaction(async (tx) => {
    const [written] = await tx.query<{ version: number }>({
      text: `
      INSERT INTO "OpportunitySet" (id, version, "asOf", sample, items, "updatedAt")
      VALUES ('live', 1, $1::timestamp(3), $2, $3, now())
      ON CONFLICT (id) DO UPDATE SET
        version = "OpportunitySet".version + 1, "asOf" = EXCLUDED."asOf", sample = EXCLUDED.sample,
        items = EXCLUDED.items, "updatedAt" = EXCLUDED."updatedAt"
      RETURNING version`,
      values: [source.asOf.toISOString(), source.sample, packed],
    });
    if (written?.version === undefined) throw new Error("publishing the opportunity set wrote no row");
    for (const statement of alsoInTransaction) await tx.query(statement);
    return written.version;
  });
}

/** What a client reading the set needs: the database, or a transaction on it. */
type SetClient = Pick<Prisma.TransactionClient, "opportunitySet">;

/** The published set without its items: which version, of when, whether the bundled sample. */
export interface SetHead {
  version: number;
  asOf: Date;
  sample: boolean;
  updatedAt: Date;
}

export interface LoadedSet extends SetHead {
  columns: OpportunityColumns;
}

const HEAD = { version: true, asOf: true, sample: true, updatedAt: true } as const;

/** The published set's head, without reading its items; null before anything was published. */
export function loadHead(client: SetClient): Promise<SetHead | null> {
  return client.opportunitySet.findUnique({ where: { id: "live" }, select: HEAD });
}

/** The published set with its items in columns, each checked; null before anything was published. */
export async function load(client: SetClient): Promise<LoadedSet | null> {
  const row = await client.opportunitySet.findUnique({ where: { id: "live" }, select: { ...HEAD, items: true } });
  if (!row) return null;
  const { items, ...head } = row;
  return { ...head, columns: items && items.length > 0 ? decodeColumns(items) : columnsOf([]) };
}

/** The published items as the API serves them; none before anything was published. */
export async function loadItems(client: SetClient): Promise<Opportunity[]> {
  const set = await load(client);
  return set ? itemsOf(set.columns) : [];
}
