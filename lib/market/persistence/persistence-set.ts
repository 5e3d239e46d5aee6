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
  private index: { markets: Map<string, Map<string, number>>; byKey: Map<string, number>; partners: PartnerRuns } | undefined;
  private oriented: (Persistence | undefined)[] | undefined;
  private bySlot: SlotColumns | undefined;

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
    const longId = this.marketNumber(long);
    const shortId = this.marketNumber(short);
    const slot = longId === undefined || shortId === undefined ? -1 : this.slotOf(longId, shortId);
    if (slot < 0) return undefined;
    this.oriented ??= new Array<Persistence | undefined>(this.size * 2);
    let persistence = this.oriented[slot];
    if (!persistence) this.oriented[slot] = persistence = orientPersistence(this.pairAt(slot >> 1).record, (slot & 1) === 0, this.through, this.iso);
    return persistence;
  }

  /**
   * The number pairs know `market` by (its place in `markets`), or undefined when no pair has it.
   * With `key`, its `marketKey`, which the ranking has made and hashed already: one lookup, where
   * the venue's map and then the market's cost a round's ranking 35 ms. Without, no key is made.
   */
  marketNumber(market: MarketRef, key?: string): number | undefined {
    const { byKey, markets } = this.indexed();
    return key === undefined ? markets.get(market.exchange)?.get(market.market) : byKey.get(key);
  }

  /**
   * The slot of the pair long market `longId`, short `shortId` (by number): the pair's row, twice,
   * plus 1 when the long market is the row's second; -1 when the set does not hold the pair. A
   * search among the long market's partners (tens), where a map of every pair (500,000 at 46
   * venues) cost a round's ranking a cache miss or two a pair.
   */
  slotOf(longId: number, shortId: number): number {
    const { start } = this.indexed().partners;
    // In the shorter of the two runs: held spot's has every perpetual. Found from the short
    // market's side, the slot is the pair's other orientation.
    if (start[longId + 1]! - start[longId]! <= start[shortId + 1]! - start[shortId]!) return this.partnerSlot(longId, shortId);
    const slot = this.partnerSlot(shortId, longId);
    return slot < 0 ? -1 : slot ^ 1;
  }

  /** The slot of `market` long and `partner` short, searched in `market`'s run; -1 when not there. */
  private partnerSlot(market: number, partner: number): number {
    const partners = this.indexed().partners;
    let low = partners.start[market]!;
    let high = partners.start[market + 1]! - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const found = partners.partner[mid]!;
      if (found === partner) return partners.slot[mid]!;
      if (found < partner) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  /**
   * Each slot's persistence (`slotOf`) as columns, as a ranking writes it for 450,000 pairs a round:
   * read from the pairs' objects, each row cost a cache miss for the object and one for each of its
   * numbers. Filled by `prepare`, a slice of pairs at a time; what it has not filled, here.
   */
  slots(): PersistenceSlots {
    const slots = this.slotColumns();
    if (!slots.complete) {
      this.prepare();
      slots.complete = true;
    }
    return slots;
  }

  /**
   * Builds the lookups, and both orientations of the figures of pairs `from` to `to` (all by
   * default) as columns (`slots`), ahead of a round; the store does it in the background, a slice
   * per turn of the event loop. Otherwise the first round with a new set makes them. Not as
   * objects: a ranking reads the columns, and the carry set asks `persistenceOf` for its ~120,000
   * pairs of 500,000 at 46 venues; a million objects made ahead were memory every collection marked.
   */
  prepare(from = 0, to = this.size): this {
    this.indexed();
    const { filled } = this.slotColumns();
    for (let row = from; row < Math.min(to, this.size); row++) if (filled[row] === 0) this.fillSlots(row);
    return this;
  }

  private slotColumns(): SlotColumns {
    if (this.bySlot) return this.bySlot;
    const slots = this.size * 2;
    this.bySlot = { figures: new Float64Array(slots * PERSISTENCE_FIGURES), asOf: this.iso(this.through), sinceTexts: [], sinceAt: new Map(), filled: new Uint8Array(this.size), complete: false };
    return this.bySlot;
  }

  /** Pair `row`'s two slots in the columns. */
  private fillSlots(row: number): void {
    const { figures, sinceTexts, sinceAt, filled } = this.slotColumns();
    for (const slot of [row * 2, row * 2 + 1]) {
      const p = this.oriented?.[slot] ?? orientPersistence(this.pairAt(row).record, slot === row * 2, this.through, this.iso);
      const at = slot * PERSISTENCE_FIGURES;
      figures[at] = p.apr_median_7d ?? Number.NaN;
      figures[at + 1] = p.apr_median_30d ?? Number.NaN;
      figures[at + 2] = p.paid_share_7d ?? Number.NaN;
      figures[at + 3] = p.apr_stddev_7d ?? Number.NaN;
      let since = p.positive_since === null ? -1 : sinceAt.get(p.positive_since);
      if (since === undefined) sinceAt.set(p.positive_since!, (since = sinceTexts.push(p.positive_since!) - 1));
      figures[at + 4] = since;
    }
    filled[row] = 1;
  }

  private readonly times = new Map<number, string>();
  /** One ISO string per instant, shared by every pair dated then. */
  private readonly iso = (ms: number): string => {
    let text = this.times.get(ms);
    if (text === undefined) this.times.set(ms, (text = new Date(ms).toISOString()));
    return text;
  };

  private rowOf(a: MarketRef, b: MarketRef): number | undefined {
    const aId = this.marketNumber(a);
    const bId = this.marketNumber(b);
    const slot = aId === undefined || bId === undefined ? -1 : this.slotOf(aId, bId);
    return slot < 0 ? undefined : slot >> 1;
  }

  private indexed() {
    if (this.index) return this.index;
    const markets = new Map<string, Map<string, number>>();
    const byKey = new Map<string, number>();
    this.markets.forEach((m, id) => {
      let byMarket = markets.get(m.exchange);
      if (!byMarket) markets.set(m.exchange, (byMarket = new Map()));
      byMarket.set(m.market, id);
      byKey.set(marketKey(m.exchange, m.market), id);
    });
    this.index = { markets, byKey, partners: partnerRuns(this.markets.length, this.columns.first, this.columns.second, this.size) };
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
 * Numbers a slot's figures take in `PersistenceSlots.figures`: the 7-day median, 30-day median,
 * 7-day paid share and 7-day stddev (NaN for null), and its positive_since's place in `sinceTexts`
 * (-1 for null).
 */
export const PERSISTENCE_FIGURES = 5;

/** Each slot's persistence as columns (PersistenceSet.slots), one record of PERSISTENCE_FIGURES numbers a slot; every slot's `as_of` is the set's. */
export interface PersistenceSlots {
  figures: ArrayLike<number>;
  asOf: string;
  sinceTexts: readonly string[];
}

/** PersistenceSlots as a set fills them, with which pairs' slots are filled. */
interface SlotColumns {
  figures: Float64Array;
  asOf: string;
  sinceTexts: string[];
  sinceAt: Map<string, number>;
  filled: Uint8Array;
  /** Every pair's slots filled: `slots` need not look. */
  complete: boolean;
}

/**
 * Each market's partners (in `partner`, ascending, from `start[m]` to `start[m + 1]`) and the slot
 * of the pair with the market long and the partner short (the pair's row twice, plus 1 when the
 * market is the row's second).
 */
interface PartnerRuns {
  start: Int32Array;
  partner: Int32Array;
  slot: Int32Array;
}

/** Above any slot (a set holds well under 2^27 pairs); partner × SLOT_SPAN + slot stays exact below 2^53. */
const SLOT_SPAN = 2 ** 28;

function partnerRuns(markets: number, first: Uint32Array, second: Uint32Array, size: number): PartnerRuns {
  const start = new Int32Array(markets + 1);
  for (let row = 0; row < size; row++) {
    start[first[row]! + 1]! += 1;
    start[second[row]! + 1]! += 1;
  }
  for (let m = 0; m < markets; m++) start[m + 1]! += start[m]!;
  const partner = new Int32Array(size * 2);
  const slot = new Int32Array(size * 2);
  const next = start.slice(0, markets);
  const place = (market: number, other: number, at: number) => {
    const i = next[market]!++;
    partner[i] = other;
    slot[i] = at;
  };
  for (let row = 0; row < size; row++) {
    place(first[row]!, second[row]!, row * 2);
    place(second[row]!, first[row]!, row * 2 + 1);
  }
  // Each run by partner. A perpetual's run is tens of pairs, held spot's one for every perpetual:
  // sorted as numbers, each partner and its slot in one exact float (partner × 2^28 + slot).
  const keys = new Float64Array(size * 2);
  for (let i = 0; i < keys.length; i++) keys[i] = partner[i]! * SLOT_SPAN + slot[i]!;
  for (let m = 0; m < markets; m++) keys.subarray(start[m]!, start[m + 1]!).sort();
  for (let i = 0; i < keys.length; i++) {
    partner[i] = Math.floor(keys[i]! / SLOT_SPAN);
    slot[i] = keys[i]! - partner[i]! * SLOT_SPAN;
  }
  return { start, partner, slot };
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
