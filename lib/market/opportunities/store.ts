import type { Db } from "@/lib/db";
import { directSql, type SqlRunner, type SqlStatement } from "@/lib/db/direct-sql";
import type { Prisma } from "@/lib/db/generated/client";
import type { Opportunity } from "../model/types";
import { columnsOf, itemsOf, type OpportunityColumns } from "./encoding/columns";
import { decodeColumns, decodeColumnsInSlices, encodeColumns } from "./encoding/set-bytes";
import { partialFromJson, partialToJson, type PartialAssets } from "./pair-scope";
import { spliceColumns } from "./splice-opportunities";

// The published opportunity set in the database: one row, OpportunitySet "live", its items one
// value in the form encoding/set-bytes.ts writes, and the micro-batches published since the round
// that wrote it, one OpportunityPatch row each (the re-ranked assets' pairs, in the same form).
// `publish`, `publishBatch` and `load` are the only ways in and out; nothing outside this folder
// reads or writes those bytes.

/** The channel every publish notifies at commit, with the new version: other processes' readers apply it at once. */
export const OPPORTUNITY_SET_CHANNEL = "opportunity_set";

const notifySet = (version: string): SqlStatement => ({ text: `SELECT pg_notify('${OPPORTUNITY_SET_CHANNEL}', ${version}::text)`, values: [] });

/**
 * This process's publishes under way, from their call to their answer. A reader
 * that hears a new version notified (LISTEN) while one is under way may be hearing that very
 * publish, whose caller applies it in memory the moment it answers: reading it back from the
 * database meanwhile would decode up to the whole set for nothing (a second on the serving thread
 * at 150,000 pairs). Process-wide, like the database connection the publishes share.
 */
let publishesUnderWay = 0;
let whenSettled: (() => void)[] = [];

async function ownPublish<T>(work: () => Promise<T>): Promise<T> {
  publishesUnderWay += 1;
  try {
    return await work();
  } finally {
    publishesUnderWay -= 1;
    if (publishesUnderWay === 0) {
      const waiting = whenSettled;
      whenSettled = [];
      // After the turn in which the publish's caller applies what it published.
      setImmediate(() => waiting.forEach((resolve) => resolve()));
    }
  }
}

/** Resolves once none of this process's publishes is under way, after their callers had their turn to apply them. */
export function ownPublishesSettled(): Promise<void> {
  if (publishesUnderWay === 0) return Promise.resolve();
  return new Promise((resolve) => whenSettled.push(resolve));
}

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
 * every server's in-memory snapshot) see the whole old set or the whole new one, never a mix. The
 * micro-batches published on top of the old set are deleted with it: the new set supersedes them,
 * except those after `keepPatchesAfter` (the version a round caught up on): their assets' pairs
 * stand as published, so they are kept as the new set's first patches, renumbered after its items.
 * `alsoInTransaction` commits with the set (an ingestion round marks itself published there, and
 * appends the round's change events: lib/events/live-round-events.ts). Answers the new version.
 * Written by the driver itself (lib/db/direct-sql.ts): megabytes at 150,000 items, which Prisma's
 * query compiler would carry through its WebAssembly as base64 text.
 */
export function publish(
  db: Db,
  set: readonly Opportunity[] | OpportunityColumns | PackedSet,
  source: { asOf: Date; sample: boolean },
  alsoInTransaction: readonly SqlStatement[] = [],
  keepPatchesAfter?: number,
): Promise<number> {
  return ownPublish(async () => {
    const { packed } = "packed" in set ? set : await pack(set);
    return directSql(db).transaction(async (tx) => {
      const [written] = await tx.query<{ version: number }>({
        text: `
        INSERT INTO "OpportunitySet" (id, version, "itemsVersion", "asOf", sample, items, "updatedAt")
        VALUES ('live', 1, 1, $1::timestamp(3), $2, $3, now())
        ON CONFLICT (id) DO UPDATE SET
          version = "OpportunitySet".version + 1, "itemsVersion" = "OpportunitySet".version + 1, "asOf" = EXCLUDED."asOf",
          sample = EXCLUDED.sample, items = EXCLUDED.items, "updatedAt" = EXCLUDED."updatedAt"
        RETURNING version`,
        values: [source.asOf.toISOString(), source.sample, packed],
      });
      if (written?.version === undefined) throw new Error("publishing the opportunity set wrote no row");
      let version = written.version;
      if (keepPatchesAfter === undefined) await tx.query({ text: `DELETE FROM "OpportunityPatch"`, values: [] });
      else version = await keepPatches(tx, keepPatchesAfter, written.version);
      for (const statement of alsoInTransaction) await tx.query(statement);
      await tx.query(notifySet(String(version)));
      return version;
    });
  });
}

/**
 * The patches after `after` moved to the versions after `itemsVersion`, in order (the two ranges
 * never overlap: the set was at `itemsVersion - 1`), the rest deleted; answers the set's version.
 */
async function keepPatches(tx: SqlRunner, after: number, itemsVersion: number): Promise<number> {
  await tx.query({ text: `DELETE FROM "OpportunityPatch" WHERE version <= $1`, values: [after] });
  const moved = await tx.query<{ version: number }>({
    text: `UPDATE "OpportunityPatch" SET version = version + $1 WHERE version > $2 RETURNING version`,
    values: [itemsVersion - after, after],
  });
  const versions = moved.map((row) => row.version).sort((a, b) => a - b);
  if (!versions.every((v, i) => v === itemsVersion + 1 + i)) throw new Error(`the opportunity set's patches after version ${after} do not lead on from it`);
  const version = itemsVersion + versions.length;
  await tx.query({ text: `UPDATE "OpportunitySet" SET version = $1 WHERE id = 'live'`, values: [version] });
  return version;
}

/**
 * A micro-batch: the pairs of `bases` re-ranked (all of them, in set order; of an asset in
 * `partial`, those with a leg on one of its venues there), to replace those pairs.
 */
export interface SetBatch {
  bases: readonly string[];
  partial?: PartialAssets;
  items: OpportunityColumns;
  /** The newest observation in the batch. */
  asOf: Date;
  /** `items` in their stored form (encoding/set-bytes.ts `encodeColumns`) when already packed: a publisher times the two apart. */
  packed?: Uint8Array<ArrayBuffer>;
}

/**
 * Publishes a micro-batch on top of the live set at `onVersion`: bumps the set's version and writes
 * the batch as a patch (a few KB, where rewriting the set would be megabytes every second), with
 * `alsoInTransaction` (its change events). Answers the new version, or null when the set is no
 * longer at `onVersion` (a round, or another batch, published meanwhile): a batch never overwrites
 * a newer set, and is not written.
 */
export function publishBatch(db: Db, onVersion: number, batch: SetBatch, alsoInTransaction: readonly SqlStatement[] = []): Promise<number | null> {
  return ownPublish(async () => {
    const items = batch.packed ?? (await encodeColumns(batch.items));
    return directSql(db).transaction(async (tx) => {
      // The version, the patch and the notification (heard on commit) in one statement: each
      // statement of a batch's transaction waits for a turn of the serving thread's event loop.
      const [written] = await tx.query<{ version: number }>({
        text: `
        WITH written AS (
          UPDATE "OpportunitySet" SET version = version + 1, "updatedAt" = now() WHERE id = 'live' AND version = $1 AND NOT sample RETURNING version
        ), patch AS (
          INSERT INTO "OpportunityPatch" (version, bases, venues, items, "asOf")
          SELECT version, $2::text[], $3::jsonb, $4::bytea, $5::timestamp(3) FROM written
        )
        SELECT version, pg_notify('${OPPORTUNITY_SET_CHANNEL}', version::text) FROM written`,
        values: [onVersion, [...batch.bases], partialToJson(batch.partial), items, batch.asOf.toISOString()],
      });
      if (written?.version === undefined) return null;
      for (const statement of alsoInTransaction) await tx.query(statement);
      return written.version;
    });
  });
}

/** What a client reading the set needs: the database, or a transaction on it. */
type SetClient = Pick<Prisma.TransactionClient, "opportunitySet" | "opportunityPatch">;

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

/** A published micro-batch as read back: the set's version it made, the assets it replaced (some in part), their new pairs. */
export interface LoadedPatch {
  version: number;
  bases: string[];
  partial: PartialAssets;
  columns: OpportunityColumns;
}

const HEAD = { version: true, asOf: true, sample: true, updatedAt: true } as const;
const PATCH = { version: true, bases: true, venues: true, items: true } as const;

/** The published set's head, without reading its items; null before anything was published. */
export function loadHead(client: SetClient): Promise<SetHead | null> {
  return client.opportunitySet.findUnique({ where: { id: "live" }, select: HEAD });
}

/** Reading the set and then its patches is tried again this often when a publish came between. */
const CONSISTENT_READ_ATTEMPTS = 5;

/**
 * The published set with its items in columns, each checked, and the micro-batches published on
 * top of it applied in order; null before anything was published. The row and its patches are two
 * reads: when a publish came between them (the patches do not lead from the row's items to its
 * version), they are read again.
 */
export async function load(client: SetClient): Promise<LoadedSet | null> {
  for (let attempt = 1; ; attempt++) {
    const row = await client.opportunitySet.findUnique({ where: { id: "live" }, select: { ...HEAD, items: true, itemsVersion: true } });
    if (!row) return null;
    const { items, itemsVersion, ...head } = row;
    const patches =
      head.version === itemsVersion
        ? []
        : await client.opportunityPatch.findMany({ where: { version: { gt: itemsVersion, lte: head.version } }, orderBy: { version: "asc" }, select: PATCH });
    if (leadsOn(patches, itemsVersion, head.version)) {
      // In slices: every server that does not ingest reads each round's set (tens of MB decompressed).
      let columns = items && items.length > 0 ? await decodeColumnsInSlices(items) : columnsOf([]);
      for (const patch of patches) columns = spliceColumns(columns, new Set(patch.bases), decodeColumns(patch.items), partialFromJson(patch.venues));
      return { ...head, columns };
    }
    if (attempt === CONSISTENT_READ_ATTEMPTS) throw new Error(`the opportunity set's patches to version ${head.version} could not be read`);
  }
}

/**
 * The micro-batches that made the set's versions after `afterVersion`, in order, with the set's
 * head; null when they do not lead on from `afterVersion` (a round replaced the set since): the
 * reader loads the whole set instead.
 */
export async function loadPatchesSince(client: SetClient, afterVersion: number): Promise<{ head: SetHead; patches: LoadedPatch[] } | null> {
  const head = await client.opportunitySet.findUnique({ where: { id: "live" }, select: { ...HEAD, itemsVersion: true } });
  if (!head || head.itemsVersion > afterVersion || head.version < afterVersion) return null;
  const { itemsVersion: _, ...setHead } = head;
  if (head.version === afterVersion) return { head: setHead, patches: [] };
  const rows = await client.opportunityPatch.findMany({ where: { version: { gt: afterVersion, lte: head.version } }, orderBy: { version: "asc" }, select: PATCH });
  if (!leadsOn(rows, afterVersion, head.version)) return null;
  return {
    head: setHead,
    patches: rows.map((r) => ({ version: r.version, bases: r.bases, partial: partialFromJson(r.venues), columns: decodeColumns(r.items) })),
  };
}

/** Whether `patches` are exactly the versions after `from` up to `to`, one each. */
function leadsOn(patches: readonly { version: number }[], from: number, to: number): boolean {
  return patches.length === to - from && patches.every((p, i) => p.version === from + 1 + i);
}

/** The published items as the API serves them; none before anything was published. */
export async function loadItems(client: SetClient): Promise<Opportunity[]> {
  const set = await load(client);
  return set ? itemsOf(set.columns) : [];
}
