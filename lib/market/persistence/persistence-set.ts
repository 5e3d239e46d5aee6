import { endianness } from "node:os";
import { promisify } from "node:util";
import { gunzip as gunzipCallback, gzip as gzipCallback } from "node:zlib";
import { marketKey } from "../model/market-average";
import type { Opportunity, Persistence } from "../model/types";
import { HOURS_7D, orientPersistence, type PairRecord } from "./pair-persistence";

/** A market as pairs name it. */
export interface MarketRef {
  exchange: string;
  market: string;
}

/**
 * The cross-venue pairs among one asset's markets, each once, the first market being the one whose
 * `marketKey` sorts first (the orientation a PairRecord is in). Pure.
 */
export function* crossVenuePairs<M extends MarketRef>(markets: readonly M[]): Generator<[first: M, second: M]> {
  const keyed = markets.map((m) => ({ m, key: marketKey(m.exchange, m.market) })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (let i = 0; i < keyed.length; i++) {
    for (let j = i + 1; j < keyed.length; j++) {
      const [first, second] = [keyed[i]!, keyed[j]!];
      if (first.m.exchange !== second.m.exchange) yield [first.m, second.m];
    }
  }
}

/** The record columns, one entry per pair; a null figure is NaN. */
const COLUMNS = {
  first: Uint32Array,
  second: Uint32Array,
  since: Float64Array,
  median7: Float64Array,
  median30: Float64Array,
  stddev7: Float64Array,
  secondPaidMore: Uint16Array,
  firstPaidMore: Uint16Array,
  settledHours: Uint16Array,
  sinceSign: Int8Array,
} as const;
type Columns = { [K in keyof typeof COLUMNS]: InstanceType<(typeof COLUMNS)[K]> };
const COLUMN_NAMES = Object.keys(COLUMNS) as (keyof Columns)[];

const nullable = (value: number) => (Number.isNaN(value) ? null : value);
// The libuv pool's, not this thread's: a few MB take ~0.1 s to (de)compress.
const gzip = promisify(gzipCallback);
const gunzip = promisify(gunzipCallback);

/**
 * Every pair's persistence as computed for the hours before `through` (epoch ms, an hour's start),
 * held column by column: ~50 bytes a pair rather than an object, a map entry and a key string each,
 * and stored and read back as those columns (`pack`, `unpack`) with nothing to parse per pair.
 */
export class PersistenceSet {
  private index: { markets: Map<string, Map<string, number>>; pairs: Map<number, number> } | undefined;
  private oriented: (Persistence | undefined)[] | undefined;

  private constructor(
    readonly through: number,
    /** The markets pairs refer to, by number. */
    readonly markets: readonly MarketRef[],
    private readonly columns: Columns,
    readonly size: number,
  ) {}

  /** A set of the given pairs, each with its first and second market in record order. */
  static of(through: number, pairs: Iterable<readonly [first: MarketRef, second: MarketRef, record: PairRecord]>): PersistenceSet {
    const markets: MarketRef[] = [];
    const ids = new Map<string, number>();
    const idOf = (m: MarketRef) => {
      const key = marketKey(m.exchange, m.market);
      let id = ids.get(key);
      if (id === undefined) {
        ids.set(key, (id = markets.length));
        markets.push({ exchange: m.exchange, market: m.market });
      }
      return id;
    };
    const rows: [number, number, PairRecord][] = [];
    for (const [first, second, record] of pairs) rows.push([idOf(first), idOf(second), record]);
    const columns = allocate(rows.length);
    rows.forEach(([first, second, r], i) => {
      columns.first[i] = first;
      columns.second[i] = second;
      columns.since[i] = r.since ?? Number.NaN;
      columns.sinceSign[i] = r.sinceSign;
      columns.median7[i] = r.median7 ?? Number.NaN;
      columns.median30[i] = r.median30 ?? Number.NaN;
      columns.stddev7[i] = r.stddev7 ?? Number.NaN;
      columns.secondPaidMore[i] = r.secondPaidMore;
      columns.firstPaidMore[i] = r.firstPaidMore;
      columns.settledHours[i] = r.settledHours;
    });
    return new PersistenceSet(through, markets, columns, rows.length);
  }

  /** Pair `row`'s markets and record. */
  pairAt(row: number): { first: MarketRef; second: MarketRef; record: PairRecord } {
    const c = this.columns;
    return {
      first: this.markets[c.first[row]!]!,
      second: this.markets[c.second[row]!]!,
      record: {
        since: nullable(c.since[row]!),
        sinceSign: c.sinceSign[row] as PairRecord["sinceSign"],
        median7: nullable(c.median7[row]!),
        median30: nullable(c.median30[row]!),
        stddev7: nullable(c.stddev7[row]!),
        secondPaidMore: c.secondPaidMore[row]!,
        firstPaidMore: c.firstPaidMore[row]!,
        settledHours: c.settledHours[row]!,
      },
    };
  }

  /** The record of the pair of `a` and `b`, and whether `a` is its first market; undefined when the set does not hold it. */
  find(a: MarketRef, b: MarketRef): { record: PairRecord; aIsFirst: boolean } | undefined {
    const row = this.rowOf(a, b);
    if (row === undefined) return undefined;
    return { record: this.pairAt(row).record, aIsFirst: this.markets[this.columns.first[row]!]!.exchange === a.exchange && this.markets[this.columns.first[row]!]!.market === a.market };
  }

  /**
   * The `persistence` of an opportunity long `long` and short `short`, or undefined when the set
   * does not hold the pair. Each pair's two orientations are made once per set and shared, so a
   * round after the first makes nothing.
   */
  persistenceOf(long: MarketRef, short: MarketRef): Persistence | undefined {
    const index = this.indexed();
    const longId = index.markets.get(long.exchange)?.get(long.market);
    const shortId = index.markets.get(short.exchange)?.get(short.market);
    if (longId === undefined || shortId === undefined) return undefined;
    const row = index.pairs.get(longId < shortId ? longId * this.markets.length + shortId : shortId * this.markets.length + longId);
    if (row === undefined) return undefined;
    const longIsFirst = this.columns.first[row] === longId;
    const slot = row * 2 + (longIsFirst ? 0 : 1);
    this.oriented ??= new Array<Persistence | undefined>(this.size * 2);
    let persistence = this.oriented[slot];
    if (!persistence) this.oriented[slot] = persistence = orientPersistence(this.pairAt(row).record, longIsFirst, this.through, this.iso);
    return persistence;
  }

  /**
   * Builds the lookups and both orientations of the figures of pairs `from` to `to` (all by
   * default) ahead of a round; the store does it in the background, a slice per turn of the event
   * loop. Otherwise the first round with a new set makes them, ~0.4 s at 114k pairs.
   */
  prepare(from = 0, to = this.size): this {
    this.indexed();
    this.oriented ??= new Array<Persistence | undefined>(this.size * 2);
    for (let row = from; row < Math.min(to, this.size); row++) {
      if (this.oriented[row * 2] && this.oriented[row * 2 + 1]) continue;
      const { record } = this.pairAt(row);
      this.oriented[row * 2] = orientPersistence(record, true, this.through, this.iso);
      this.oriented[row * 2 + 1] = orientPersistence(record, false, this.through, this.iso);
    }
    return this;
  }

  private readonly times = new Map<number, string>();
  /** One ISO string per instant, shared by every pair dated then. */
  private readonly iso = (ms: number): string => {
    let text = this.times.get(ms);
    if (text === undefined) this.times.set(ms, (text = new Date(ms).toISOString()));
    return text;
  };

  private rowOf(a: MarketRef, b: MarketRef): number | undefined {
    const index = this.indexed();
    const aId = index.markets.get(a.exchange)?.get(a.market);
    const bId = index.markets.get(b.exchange)?.get(b.market);
    if (aId === undefined || bId === undefined) return undefined;
    return index.pairs.get(aId < bId ? aId * this.markets.length + bId : bId * this.markets.length + aId);
  }

  private indexed() {
    if (this.index) return this.index;
    const markets = new Map<string, Map<string, number>>();
    this.markets.forEach((m, id) => {
      let byMarket = markets.get(m.exchange);
      if (!byMarket) markets.set(m.exchange, (byMarket = new Map()));
      byMarket.set(m.market, id);
    });
    const pairs = new Map<number, number>();
    const n = this.markets.length;
    const { first, second } = this.columns;
    for (let row = 0; row < this.size; row++) {
      const [a, b] = [first[row]!, second[row]!];
      pairs.set(a < b ? a * n + b : b * n + a, row);
    }
    this.index = { markets, pairs };
    return this.index;
  }

  /**
   * The set as PairPersistenceSet.pairs stores it, gzipped: a JSON header (the markets, the pair
   * count) and then each column's bytes, in the machine's byte order, which the header names.
   */
  async pack(): Promise<Uint8Array<ArrayBuffer>> {
    return new Uint8Array(await gzip(this.bytes(), { level: 1 }));
  }

  /** A stored set back; a blob that does not add up (truncated, other byte order, bad values) throws rather than attach garbage. */
  static async unpack(through: number, stored: Uint8Array): Promise<PersistenceSet> {
    return PersistenceSet.ofBytes(through, await gunzip(stored));
  }

  /** The set in pack's layout, uncompressed: what another thread rebuilds it from (`ofBytes`). */
  bytes(): Buffer {
    const header = Buffer.from(JSON.stringify({ v: 1, endianness: endianness(), size: this.size, markets: this.markets.map((m) => [m.exchange, m.market]) }));
    const parts = [Buffer.alloc(4), header, Buffer.alloc((8 - ((4 + header.length) % 8)) % 8)];
    parts[0]!.writeUInt32LE(header.length);
    for (const name of COLUMN_NAMES) {
      const column = this.columns[name];
      parts.push(Buffer.from(column.buffer, column.byteOffset, column.byteLength));
    }
    return Buffer.concat(parts);
  }

  /** The set `bytes` gave, checked as a stored one is. */
  static ofBytes(through: number, bytes: Buffer): PersistenceSet {
    const headerLength = bytes.readUInt32LE(0);
    const header = JSON.parse(bytes.subarray(4, 4 + headerLength).toString("utf8")) as { v?: unknown; endianness?: unknown; size?: unknown; markets?: unknown };
    const { size, markets } = header;
    if (header.v !== 1 || header.endianness !== endianness() || typeof size !== "number" || !Number.isInteger(size) || !Array.isArray(markets)) {
      throw new Error("stored pair persistence: unreadable header");
    }
    const refs = markets.map((m: unknown): MarketRef => {
      if (!Array.isArray(m) || typeof m[0] !== "string" || typeof m[1] !== "string") throw new Error("stored pair persistence: bad market");
      return { exchange: m[0], market: m[1] };
    });
    // Copied to an aligned buffer of its own: the typed arrays below need 8-byte alignment.
    let offset = 4 + headerLength + ((8 - ((4 + headerLength) % 8)) % 8);
    const body = new ArrayBuffer(bytes.length - offset);
    new Uint8Array(body).set(bytes.subarray(offset));
    offset = 0;
    const columns = {} as Record<keyof Columns, unknown>;
    for (const name of COLUMN_NAMES) {
      const Type = COLUMNS[name];
      if (offset + size * Type.BYTES_PER_ELEMENT > body.byteLength) throw new Error("stored pair persistence: truncated");
      columns[name] = new Type(body, offset, size);
      offset += size * Type.BYTES_PER_ELEMENT;
    }
    const c = columns as Columns;
    for (let i = 0; i < size; i++) {
      if (c.first[i]! >= refs.length || c.second[i]! >= refs.length || Math.abs(c.sinceSign[i]!) > 1 || c.settledHours[i]! > HOURS_7D) {
        throw new Error(`stored pair persistence: bad pair ${i}`);
      }
    }
    return new PersistenceSet(through, refs, c, size);
  }
}

function allocate(size: number): Columns {
  const columns = {} as Record<keyof Columns, unknown>;
  for (const name of COLUMN_NAMES) columns[name] = new COLUMNS[name](size);
  return columns as Columns;
}

/**
 * Each opportunity with its pair's persistence from `set`, turned to the opportunity's long and
 * short legs. A pair the set does not hold (a market without recent history) keeps every figure
 * unknown, as does every pair when there is no set yet. Pure (the lookups the set builds are
 * caches); the items given are not changed.
 */
export function withPersistence(items: readonly Opportunity[], set: PersistenceSet | null): Opportunity[] {
  if (!set) return [...items];
  return items.map((o) => {
    const persistence = set.persistenceOf(o.long, o.short);
    return persistence ? { ...o, persistence } : o;
  });
}
