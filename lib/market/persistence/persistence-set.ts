import { gunzipSync, gzipSync } from "node:zlib";
import { z } from "zod";
import { marketKey } from "../ingest/with-average-aprs";
import type { Opportunity, Persistence } from "../types";
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
 * unknown, as does every pair when there is no set yet. Pure (the lookup it builds once per set is
 * a cache); the items given are not changed.
 */
export function withPersistence(items: readonly Opportunity[], set: PersistenceSet | null): Opportunity[] {
  if (!set) return [...items];
  const lookup = persistenceLookup(set);
  return items.map((o) => {
    const persistence = persistenceOf(lookup, o);
    return persistence ? { ...o, persistence } : o;
  });
}

/**
 * withPersistence for items the caller has just created and owns (a round's ranking): sets the
 * field on them rather than copying each. Copying an item costs microseconds (more once V8 gives
 * up on its shape), about a second a round at 100k opportunities; setting one field costs nothing.
 */
export function attachPersistence(items: Opportunity[], set: PersistenceSet | null): Opportunity[] {
  if (!set) return items;
  const lookup = persistenceLookup(set);
  for (const o of items) {
    const persistence = persistenceOf(lookup, o);
    if (persistence) o.persistence = persistence;
  }
  return items;
}

function persistenceOf(lookup: PersistenceLookup, o: Opportunity): Persistence | undefined {
  const long = lookup.markets.get(o.long.exchange)?.get(o.long.market);
  const short = lookup.markets.get(o.short.exchange)?.get(o.short.market);
  if (long === undefined || short === undefined) return undefined;
  return long < short ? lookup.pairs.get(long * lookup.size + short)?.[0] : lookup.pairs.get(short * lookup.size + long)?.[1];
}

/**
 * A set arranged for attaching: markets numbered in key order (reached through the legs' own
 * exchange and market strings, whose hashes the engine keeps, rather than a key built per item),
 * and each pair's persistence in both orientations, built once. Building a pair key and an ISO
 * date per opportunity cost ~1 s a round at 100k opportunities; this is a few tens of ms.
 */
interface PersistenceLookup {
  markets: Map<string, Map<string, number>>;
  size: number;
  /** By first × size + second: [first long, second long]. */
  pairs: Map<number, readonly [Persistence, Persistence]>;
}

const lookups = new WeakMap<PersistenceSet, PersistenceLookup>();

/** Builds the set's lookup ahead of a round (the store does, in the background); rounds then only read it. */
export function persistenceLookup(set: PersistenceSet): PersistenceLookup {
  let lookup = lookups.get(set);
  if (lookup) return lookup;
  const keys = new Set<string>();
  for (const key of set.pairs.keys()) for (const market of key.split("\u0001")) keys.add(market);
  const sorted = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const ids = new Map(sorted.map((key, id) => [key, id]));
  const markets = new Map<string, Map<string, number>>();
  for (const [key, id] of ids) {
    const [exchange = "", market = ""] = key.split("\u0000");
    let byMarket = markets.get(exchange);
    if (!byMarket) markets.set(exchange, (byMarket = new Map()));
    byMarket.set(market, id);
  }
  const size = sorted.length;
  const pairs = new Map<number, readonly [Persistence, Persistence]>();
  const times = new Map<number, string>(); // one ISO string per hour, shared
  const iso = (ms: number) => {
    let text = times.get(ms);
    if (text === undefined) times.set(ms, (text = new Date(ms).toISOString()));
    return text;
  };
  for (const [key, record] of set.pairs) {
    const [first = "", second = ""] = key.split("\u0001");
    pairs.set(ids.get(first)! * size + ids.get(second)!, [orientPersistence(record, true, set.through, iso), orientPersistence(record, false, set.through, iso)]);
  }
  lookup = { markets, size, pairs };
  lookups.set(set, lookup);
  return lookup;
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
