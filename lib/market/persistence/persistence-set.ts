import { gunzipSync, gzipSync } from "node:zlib";
import { z } from "zod";
import { marketKey } from "../ingest/with-average-aprs";
import type { Opportunity } from "../types";
import { orientPersistence, type PairRecord } from "./pair-persistence";

/** Every pair's persistence as computed for the hours before `through` (epoch ms, an hour's start). */
export interface PersistenceSet {
  through: number;
  /** By pairKey of the two markets. */
  pairs: ReadonlyMap<string, PairRecord>;
}

/** One key per unordered pair of markets; `firstIsA` says whether market A is the record's first. */
export function pairKey(aExchange: string, aMarket: string, bExchange: string, bMarket: string): { key: string; firstIsA: boolean } {
  const a = marketKey(aExchange, aMarket);
  const b = marketKey(bExchange, bMarket);
  return a <= b ? { key: `${a}\u0001${b}`, firstIsA: true } : { key: `${b}\u0001${a}`, firstIsA: false };
}

/**
 * The cross-venue pairs among one asset's markets, each once, first market the one whose key sorts
 * first, with the pair's key: the pairs a PersistenceSet holds. Pure.
 */
export function* crossVenuePairs<M extends { exchange: string; market: string }>(markets: readonly M[]): Generator<[key: string, first: M, second: M]> {
  const keyed = markets.map((m) => ({ m, key: marketKey(m.exchange, m.market) })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (let i = 0; i < keyed.length; i++) {
    for (let j = i + 1; j < keyed.length; j++) {
      const [first, second] = [keyed[i]!, keyed[j]!];
      if (first.m.exchange !== second.m.exchange) yield [`${first.key}\u0001${second.key}`, first.m, second.m];
    }
  }
}

/**
 * Each opportunity with its pair's persistence from `set`, turned to the opportunity's long and
 * short legs. A pair the set does not hold (a market without recent history) keeps every figure
 * unknown, as does every pair when there is no set yet. Pure.
 */
export function withPersistence(items: readonly Opportunity[], set: PersistenceSet | null): Opportunity[] {
  if (!set) return [...items];
  return items.map((o) => {
    const { key, firstIsA } = pairKey(o.long.exchange, o.long.market, o.short.exchange, o.short.market);
    const record = set.pairs.get(key);
    return record ? { ...o, persistence: orientPersistence(record, firstIsA, set.through) } : o;
  });
}

// Stored as rows of plain arrays: 100k pairs pack to a few MB, not the tens an array of objects takes.
const rowSchema = z.tuple([
  z.string(), // pair key
  z.number().nullable(), // since
  z.union([z.literal(1), z.literal(-1), z.literal(0)]),
  z.number().nullable(), // median7
  z.number().nullable(), // median30
  z.number().nullable(), // stddev7
  z.number().int(), // secondPaidMore
  z.number().int(), // firstPaidMore
  z.number().int(), // settledHours
]);

/** A set as PairPersistenceSet.pairs stores it: gzipped JSON rows. */
export function packPersistence(set: PersistenceSet): Uint8Array<ArrayBuffer> {
  const rows: z.infer<typeof rowSchema>[] = [];
  for (const [key, r] of set.pairs) {
    rows.push([key, r.since, r.sinceSign, r.median7, r.median30, r.stddev7, r.secondPaidMore, r.firstPaidMore, r.settledHours]);
  }
  return new Uint8Array(gzipSync(JSON.stringify(rows), { level: 1 }));
}

/** The stored rows back as a set; each row is checked, so a malformed value fails loudly here, not later. */
export function unpackPersistence(through: number, stored: Uint8Array): PersistenceSet {
  const rows: unknown = JSON.parse(gunzipSync(stored).toString("utf8"));
  if (!Array.isArray(rows)) throw new Error("stored pair persistence is not an array");
  const pairs = new Map<string, PairRecord>();
  for (const row of rows) {
    const [key, since, sinceSign, median7, median30, stddev7, secondPaidMore, firstPaidMore, settledHours] = rowSchema.parse(row);
    pairs.set(key, { since, sinceSign, median7, median30, stddev7, secondPaidMore, firstPaidMore, settledHours });
  }
  return { through, pairs };
}
