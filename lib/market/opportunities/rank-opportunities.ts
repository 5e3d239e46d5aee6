import { roundTo } from "@/lib/round";
import { annualisedFundingPct, assertHoldingDays, DEFAULT_HOLDING_DAYS, DEFAULT_TAKER_FEE, ratePer8h } from "../model/apr";
import { atCap } from "../model/at-cap";
import type { ExcludedLeg } from "../model/pairing-exclusions";
import { strayPrices } from "../model/price-bound";
import { pairingKey } from "../model/underlying-class";
import { isoTexts } from "../model/iso-texts";
import { marketKey, type MarketAverage, type MarketAverages } from "../model/market-average";
import { type MarketSnapshot, type Opportunity, type OpportunityLeg } from "../model/types";
import { PERSISTENCE_FIGURES, type PersistenceSlots } from "../persistence/persistence-set";
import { ABSENT, emptyColumnArrays, ITEM_KEYS, itemsOf, opportunityId, ValueList, type ColumnArrays, type ColumnSlabs, type OpportunityColumns } from "./encoding/columns";
import { hasLegOn, type PartialAssets } from "./pair-scope";
import { descendingOrderSlices } from "./encoding/descending-order";
import { newArray, OVERWRITTEN, type TakeArray } from "./encoding/scratch-arrays";
import { ANNUALISED_PCT, AVERAGE_DAY, AVERAGE_WEEK, FIGURES, LEG, NO_SLOT, OBSERVED, OBSERVED_AT, OPEN_INTEREST_USD, RATE_8H, REASONS, SYMBOL, TAKER_FEE, UNIT_PRICE, VOLUME_24H_USD, writePairRows, type PairRowInputs } from "./pair-rows";
import { runInSlices, runWhole, type Sliced } from "@/lib/time-slices";

export interface ComputeOpportunitiesOptions {
  /** Days over which `net_apr` spreads the fee round trip; default {@link DEFAULT_HOLDING_DAYS}. */
  holdingDays?: number;
  /** Fee for legs without a stated taker fee; default {@link DEFAULT_TAKER_FEE}. */
  fallbackTakerFee?: number;
  /**
   * Each pair's `persistence`, known from stored history (lib/market/persistence/ PersistenceSet);
   * unknown without. Each market is looked up by name once, each pair by its markets' numbers.
   */
  persistence?: PersistenceLookup;
  /**
   * Each market's mean annualised funding over the last day and week, by `marketKey`: given, every
   * opportunity carries `apr_1d_avg` / `apr_7d_avg` (`pairAverage`, null where a leg has no history);
   * without, it has neither (the sandbox keeps no history). Looked up once per market, not per pair.
   */
  averages?: MarketAverages;
  /**
   * Each market's last interval change and settlement, looked up by `marketKey` when its leg is
   * built; without, the snapshots' own `intervalChangedAt` / `lastSettlement` are used.
   */
  marketHistory?: LegHistory;
  /** Where the columns' memory comes from (a round's, given back when its set is replaced); new memory without. */
  slabs?: ColumnSlabs;
  /**
   * PAIR_PRICE_BOUND: an asset's legs whose per-unit marks stray from the others' by more than this
   * fraction are paired with none (model/price-bound.ts) and listed in `excluded`. Without, no leg
   * is held to a price: the offline sample and the sandbox pair recordings and figures of different
   * moments, whose prices say nothing about whether two tickers are one asset.
   */
  priceBound?: number;
  /**
   * Assets ranked in part (a micro-batch's: pair-scope.ts): of such an asset only the pairs with
   * a leg on one of its venues here are formed; the others are as the set has them already.
   */
  partial?: PartialAssets;
  /**
   * Another thread that writes the second half of the rows while this one writes the first (a
   * worker's venue thread, idle while its round ranks: VenueThread.rowWriter), when the columns'
   * and working arrays' memory is shared (ColumnSlabs made `shared`); without, or with memory of
   * this thread's own, this thread writes every row.
   */
  rowWriter?: RowWriter;
}

/** A second thread writing rows `from` to `to` of a ranking (writePairRows), started at once: `wait` blocks until it is done, false when it did not finish in time. */
export interface RowWriter {
  start(rows: PairRowInputs, from: number, to: number): { wait(): boolean };
}

/** Sets smaller than this are written on the ranking's own thread: handing rows over costs more than it saves. */
const PARALLEL_ROWS = 65_536;

/** Whether another thread sees what these rows are written from and into. */
function sharedRows(rows: PairRowInputs): boolean {
  const arrays = [rows.order, rows.longOf, rows.shortOf, rows.aprs, rows.f, rows.sinceOfRow, rows.reasonCodes, ...(rows.pairFigures ? [rows.pairFigures] : [])];
  return rows.slab instanceof SharedArrayBuffer && arrays.every((array) => array.buffer instanceof SharedArrayBuffer);
}

/**
 * Pair persistence as the ranking asks it (PersistenceSet): each market's number once, each pair's
 * slot by its markets' numbers as the pair is formed (an asset's markets at a time), and the slots'
 * figures as columns when the rows are written (in APR order).
 */
export interface PersistenceLookup {
  /** `key` is the market's `marketKey`. */
  marketNumber(market: MarketSnapshot, key: string): number | undefined;
  /** The slot of the pair long `long`, short `short`; -1 when unknown. */
  slotOf(long: number, short: number): number;
  slots(): PersistenceSlots;
}

export interface OpportunityScan {
  opportunities: Opportunity[];
  skipped: SkippedSnapshots;
  excluded: ExcludedLeg[];
}

export interface SkippedSnapshots {
  /** Snapshots without a funding rate. */
  missingRate: number;
  /** Snapshots whose funding interval could not be read from the venue. */
  unknownInterval: number;
  /**
   * Extra markets of one venue for one asset (`BTC/USDT:USDT` beside `BTC/USDC:USDC`): each venue
   * contributes its most traded market per asset, so an asset pair has one id per venue pair.
   */
  shadowed: number;
  /** Legs paired with none because their price strays from their asset's (`priceBound`), each in `excluded`. */
  priceOutliers: number;
}

/**
 * A market that may be a leg, with what pairing reads of it copied out of its snapshot: snapshots
 * come from each venue's own code, in as many shapes, and the pairing loop reads them 150,000
 * times, where a read of an object of many shapes costs several times one of a single shape.
 */
interface Candidate {
  snapshot: MarketSnapshot;
  exchange: string;
  base: string;
  takerFee: number;
  openInterestUsd: number | null;
  volume24hUsd: number | null;
  observedAt: number;
  rate: number;
  intervalHours: number;
  annualisedPct: number;
  /** The market's key in the per-market maps (`marketKey`). */
  key: string;
  /** Its mark per unit of the asset (the venue's mark over its bundle size); NaN without a mark. */
  unitPrice: number;
  /** The market's mean annualised funding, when averages were asked for. */
  average: MarketAverage | undefined;
  // Set once the market is in a pair (-1 before): its leg's position (built once per market: an
  // asset on 8 venues is in 7 pairs), its texts' positions, and its asset's and venue's places in
  // id order (`idOrderPlaces`).
  leg: number;
  observed: number;
  symbol: number;
  symbolRank: number;
  exchangeRank: number;
  shortExchangeRank: number;
  /** Its number in the persistence lookup; -1 when unknown or there is none. */
  persistence: number;
}

/**
 * Every cross-venue pair of markets on the same asset, long where annualised funding is cheaper and
 * short where it is dearer, sorted by `apr` descending with ties broken by `id`. Pure: the same
 * snapshots always give the same list. The objects of `rankOpportunities`' columns.
 */
export function computeOpportunities(
  snapshots: readonly MarketSnapshot[],
  options: ComputeOpportunitiesOptions = {},
): OpportunityScan {
  const { columns, skipped, excluded } = rankOpportunities(snapshots, options);
  return { opportunities: itemsOf(columns), skipped, excluded };
}

/**
 * `computeOpportunities` into columns (encoding/columns.ts), what a round publishes,
 * with no object per pair: a first pass finds each pair's sides and APR, the order is sorted from
 * those, and a second pass writes every figure straight into the columns in that order.
 */
export function rankOpportunities(snapshots: readonly MarketSnapshot[], options: ComputeOpportunitiesOptions = {}): RankedColumns {
  return runWhole(rankingSlices(snapshots, settingsOf(options)));
}

/**
 * `rankOpportunities` giving the event loop a turn every `sliceMs` (lib/time-slices.ts): the same
 * work, the same columns, for a round's whole set on a thread that also serves requests. The
 * snapshots and options must not change until it resolves.
 */
export function rankOpportunitiesInSlices(snapshots: readonly MarketSnapshot[], options: ComputeOpportunitiesOptions = {}, sliceMs?: number): Promise<RankedColumns> {
  return runInSlices(rankingSlices(snapshots, settingsOf(options)), sliceMs);
}

export interface RankedColumns {
  columns: OpportunityColumns;
  skipped: SkippedSnapshots;
  /** The legs `priceBound` left out, by asset in the order met. */
  excluded: ExcludedLeg[];
}

/** How many snapshots, pairs or rows the ranking handles between two of its pause points. */
const SLICE_ITEMS = 2_048;

/** The options with every one present, defaults filled in: the one shape `rankingSlices` is given. */
type RankingSettings = Required<Pick<ComputeOpportunitiesOptions, "holdingDays" | "fallbackTakerFee">> &
  { [K in Exclude<keyof ComputeOpportunitiesOptions, "holdingDays" | "fallbackTakerFee">]: ComputeOpportunitiesOptions[K] | undefined };

/**
 * Callers build their options with spreads, in as many shapes as they leave out: each new shape
 * met in the ranking's optimised code threw that code away (--trace-deopt: "wrong map" at its reads
 * of options, in a third of the rounds), and compiling the ranking again took V8 ~115 ms of CPU each
 * time. A literal of every option, made here, is one shape.
 */
function settingsOf(options: ComputeOpportunitiesOptions): RankingSettings {
  return {
    holdingDays: options.holdingDays ?? DEFAULT_HOLDING_DAYS,
    fallbackTakerFee: options.fallbackTakerFee ?? DEFAULT_TAKER_FEE,
    persistence: options.persistence,
    averages: options.averages,
    marketHistory: options.marketHistory,
    slabs: options.slabs,
    priceBound: options.priceBound,
    partial: options.partial,
    rowWriter: options.rowWriter,
  };
}

/** The ranking, pausing (`yield`) every SLICE_ITEMS snapshots, pairs or rows. */
function* rankingSlices(snapshots: readonly MarketSnapshot[], options: RankingSettings): Sliced<RankedColumns> {
  const { holdingDays, fallbackTakerFee } = options;
  // Checked up front, so a bad option fails even when there is no pair to price.
  assertHoldingDays(holdingDays);

  const skipped = { missingRate: 0, unknownInterval: 0, shadowed: 0, priceOutliers: 0 };
  const byBase = new Map<string, Map<string, Candidate>>();
  for (let n = 0; n < snapshots.length; n++) {
    if (n % SLICE_ITEMS === SLICE_ITEMS - 1) yield;
    const snapshot = snapshots[n]!;
    if (snapshot.fundingRate === null) {
      skipped.missingRate += 1;
      continue;
    }
    if (snapshot.fundingIntervalHours === null) {
      skipped.unknownInterval += 1;
      continue;
    }
    const key = marketKey(snapshot.exchange, snapshot.market);
    const candidate: Candidate = {
      snapshot,
      exchange: snapshot.exchange,
      base: snapshot.base,
      takerFee: snapshot.takerFee ?? fallbackTakerFee,
      openInterestUsd: snapshot.openInterestUsd,
      volume24hUsd: snapshot.volume24hUsd,
      observedAt: snapshot.observedAt,
      rate: snapshot.fundingRate,
      intervalHours: snapshot.fundingIntervalHours,
      annualisedPct: annualisedFundingPct({ rate: snapshot.fundingRate, intervalHours: snapshot.fundingIntervalHours }),
      key,
      unitPrice: unitPrice(snapshot),
      average: options.averages?.get(key, snapshot),
      leg: -1,
      observed: -1,
      symbol: -1,
      symbolRank: -1,
      exchangeRank: -1,
      shortExchangeRank: -1,
      persistence: -1,
    };
    // Markets pair within one underlying class: a HIP-3 index never meets a memecoin of its ticker.
    const group = pairingKey(snapshot.base, snapshot.underlyingClass);
    let venues = byBase.get(group);
    if (!venues) {
      venues = new Map();
      byBase.set(group, venues);
    }
    const held = venues.get(snapshot.exchange);
    if (held) skipped.shadowed += 1;
    if (!held || preferred(candidate.snapshot, held.snapshot)) venues.set(snapshot.exchange, candidate);
  }
  const excluded: ExcludedLeg[] = [];
  if (options.priceBound !== undefined) {
    yield;
    skipped.priceOutliers = leaveOutStrayPrices(byBase, options.priceBound, excluded);
  }

  // Each market's leg at the position its candidate records: a list, not a ValueList, for every leg
  // is new (one a market), so no lookup would ever find one, and 26,000 objects hashed into a table
  // a round only cost memory.
  const legs: OpportunityLeg[] = [];
  const texts = new ValueList<string>();
  const isoOf = isoTexts();
  const idPlaces = idOrderPlaces(byBase);
  // Pass 1: each pair's long and short side (positions in `paired`) and APR.
  const paired: Candidate[] = [];
  // Each group's venues a pair must have a leg on, where it is ranked in part.
  const onlyOf = (venues: ReadonlyMap<string, Candidate>) => options.partial?.get(venues.values().next().value!.base);
  let count = 0;
  for (const venues of byBase.values()) {
    const n = venues.size;
    if (n < 2) continue;
    const only = onlyOf(venues);
    // Pairs with a leg on a venue of `only`: all of them less those among the other venues.
    const outside = only ? n - [...venues.keys()].filter((exchange) => only.has(exchange)).length : 0;
    count += (n * (n - 1)) / 2 - (outside * (outside - 1)) / 2;
  }
  // The working arrays, kept between a process's rounds when it ranks them (ColumnSlabs.scratch).
  const take = options.slabs ? options.slabs.scratch() : newArray;
  // Pass 1 writes every pair's, and pass 2 every row's, before reading any (OVERWRITTEN).
  const longOf = take(Uint32Array, count, OVERWRITTEN);
  const shortOf = take(Uint32Array, count, OVERWRITTEN);
  const aprs = take(Float64Array, count, OVERWRITTEN);
  // Each pair's persistence figures, copied as the pair is formed, in the order pairs are formed:
  // the set holds an asset's pairs together, so these reads stay among a few kilobytes, and the
  // rows, written in APR order, read them from a table of count × PERSISTENCE_FIGURES numbers
  // (18 MB at 445,829 pairs) instead of the set's two orientations of every pair (41 MB).
  const lookup = options.persistence;
  const known = lookup?.slots();
  const setFigures = known?.figures;
  const pairFigures = known ? take(Float64Array, count * PERSISTENCE_FIGURES) : undefined;
  // And, where ids sort by numbers (idOrderPlaces), its place in id order, while its markets are at hand too.
  const places = idPlaces.exact ? take(Uint32Array, count, OVERWRITTEN) : undefined;
  let k = 0;
  let pausedAt = 0;
  for (const [group, venues] of byBase) {
    if (venues.size < 2) continue;
    if (k - pausedAt >= SLICE_ITEMS) {
      pausedAt = k;
      yield;
    }
    const only = onlyOf(venues);
    if (only && ![...venues.keys()].some((exchange) => only.has(exchange))) continue;
    const first = paired.length;
    const symbol = venues.values().next().value!.base;
    const symbolAt = texts.at(symbol);
    for (const candidate of [...venues.values()].sort((a, b) => compareText(a.exchange, b.exchange))) {
      const observedIso = isoOf(candidate.observedAt);
      candidate.leg = legs.push(toLeg(candidate, options.marketHistory, isoOf)) - 1;
      candidate.observed = texts.at(observedIso);
      candidate.symbol = symbolAt;
      candidate.symbolRank = idPlaces.symbols.get(group)!;
      candidate.exchangeRank = idPlaces.exchanges.get(candidate.exchange)!;
      candidate.shortExchangeRank = idPlaces.shortExchanges.get(candidate.exchange)!;
      if (lookup) candidate.persistence = lookup.marketNumber(candidate.snapshot, candidate.key) ?? -1;
      paired.push(candidate);
    }
    for (let i = first; i < paired.length; i += 1) {
      for (let j = i + 1; j < paired.length; j += 1) {
        if (only && !hasLegOn(only, paired[i]!.exchange, paired[j]!.exchange)) continue;
        // Equal annualised funding keeps exchange order, so the id stays put while the APR is 0.
        const bLonger = paired[j]!.annualisedPct < paired[i]!.annualisedPct;
        const long = bLonger ? j : i;
        const short = bLonger ? i : j;
        longOf[k] = long;
        shortOf[k] = short;
        const longNumber = paired[long]!.persistence;
        const shortNumber = paired[short]!.persistence;
        if (pairFigures) {
          const slot = longNumber >= 0 && shortNumber >= 0 ? lookup!.slotOf(longNumber, shortNumber) : -1;
          const at = k * PERSISTENCE_FIGURES;
          if (slot >= 0) {
            const from = slot * PERSISTENCE_FIGURES;
            pairFigures[at] = setFigures![from]!;
            pairFigures[at + 1] = setFigures![from + 1]!;
            pairFigures[at + 2] = setFigures![from + 2]!;
            pairFigures[at + 3] = setFigures![from + 3]!;
            pairFigures[at + 4] = setFigures![from + 4]!;
          } else pairFigures[at + 4] = NO_SLOT;
        }
        aprs[k] = roundTo(paired[short]!.annualisedPct - paired[long]!.annualisedPct, 6);
        if (places) places[k] = idPlaces.key(paired[long]!, paired[short]!);
        k += 1;
      }
    }
  }
  // The arrays above were taken unzeroed for exactly `count` pairs.
  if (k !== count) throw new Error(`the ranking counted ${count} pairs and formed ${k}`);
  let order: Uint32Array;
  if (places) {
    // Highest APR first, ties by a number giving id order: one radix sort by both.
    yield;
    order = yield* descendingOrderSlices(aprs, places, take);
  } else {
    order = yield* byAprThenText(aprs, (p) => opportunityId(paired[longOf[p]!]!.base, paired[longOf[p]!]!.exchange, paired[shortOf[p]!]!.exchange));
  }
  yield;

  // Pass 2: every figure, in order, from the paired markets' figures laid out by position.
  // No ids: each is its pair's standard one (OpportunityColumns.ids).
  const f = pairedFigures(paired, take);
  const c = options.slabs ? options.slabs.take(count) : emptyColumnArrays(count);
  c.type.fill(texts.at("perp_perp"));
  // The one pair of columns the rows leave unwritten without averages, absent in a slab too.
  if (!options.averages) {
    for (const column of [c.apr_1d_avg, c.apr_7d_avg]) {
      column.states.fill(ABSENT);
      column.values.fill(0);
    }
  }
  // The rows, from the pairs and their markets' figures (pair-rows.ts): where the ranking has a
  // second thread (`rowWriter`) and its memory is shared, that thread writes the second half while
  // this one writes the first, in slices; if it has not finished by the time this one has, this
  // one waits for it, and writes the rest itself should it not answer.
  const rows: PairRowInputs = {
    count,
    slab: c.apr.values.buffer,
    order,
    longOf,
    shortOf,
    aprs,
    pairFigures,
    f,
    sinceOfRow: take(Int32Array, count, OVERWRITTEN),
    reasonCodes: take(Uint8Array, count, OVERWRITTEN),
    holdingDays,
    averages: options.averages !== undefined,
  };
  const writer = options.rowWriter && count >= PARALLEL_ROWS && sharedRows(rows) ? options.rowWriter : undefined;
  const half = writer ? Math.ceil(count / 2 / SLICE_ITEMS) * SLICE_ITEMS : count;
  const theirs = writer?.start(rows, half, count);
  for (let from = 0; from < half; from += SLICE_ITEMS) {
    writePairRows(rows, c, from, Math.min(half, from + SLICE_ITEMS));
    yield;
  }
  if (theirs && !theirs.wait()) {
    for (let from = half; from < count; from += SLICE_ITEMS) {
      writePairRows(rows, c, from, Math.min(count, from + SLICE_ITEMS));
      yield;
    }
  }
  const rowTexts = new RowTexts(texts, known, c, rows);
  for (let from = 0; from < count; from += SLICE_ITEMS) {
    rowTexts.write(from, Math.min(count, from + SLICE_ITEMS));
    if (from + SLICE_ITEMS < count) yield;
  }
  const keys: string[] = [...ITEM_KEYS];
  if (options.averages) keys.push("apr_1d_avg", "apr_7d_avg");
  return { columns: { ...c, count, keys, ids: null, legs, texts: texts.list }, skipped, excluded };
}

/**
 * The rows' texts, in row order a slice at a time, reasons before persistence, as the set lists
 * them first met: the set's as_of, each positive_since (a few hundred hours) and null. A class, not
 * a closure made by each ranking: V8 keeps a closure's optimised code only while a closure of it
 * lives (its feedback holds the code weakly), so each round's was compiled again (--trace-opt).
 */
class RowTexts {
  private asOfText = -1;
  private readonly sinceText: Int32Array;
  private readonly reasonText = REASONS.map(() => -1);
  private readonly nullText: number;

  constructor(
    private readonly texts: ValueList<string>,
    private readonly known: PersistenceSlots | undefined,
    private readonly c: ColumnArrays,
    private readonly rows: PairRowInputs,
  ) {
    this.sinceText = new Int32Array(known?.sinceTexts.length ?? 0).fill(-1);
    this.nullText = texts.at(null);
  }

  write(from: number, to: number): void {
    const { texts, known, c, reasonText, sinceText, nullText } = this;
    const { sinceOfRow, reasonCodes } = this.rows;
    const reasons = c.price_spread_unavailable_reason;
    for (let r = from; r < to; r++) {
      const code = reasonCodes[r]!;
      let at = reasonText[code]!;
      if (at < 0) at = reasonText[code] = texts.at(REASONS[code]!);
      reasons[r] = at;
    }
    const asOfs = c["persistence.as_of"];
    const sinces = c["persistence.positive_since"];
    for (let r = from; r < to; r++) {
      const since = sinceOfRow[r]!;
      if (since === NO_SLOT) {
        asOfs[r] = nullText;
        sinces[r] = nullText;
        continue;
      }
      if (this.asOfText < 0) this.asOfText = texts.at(known!.asOf);
      if (since >= 0 && sinceText[since]! < 0) sinceText[since] = texts.at(known!.sinceTexts[since]!);
      asOfs[r] = this.asOfText;
      sinces[r] = since < 0 ? nullText : sinceText[since]!;
    }
  }
}

/**
 * The legs a ranking of `snapshots` with `priceBound` leaves out, without ranking: the markets are
 * grouped as the ranking groups them (a rate and an interval, one market a venue per asset) and held
 * to the bound the same way, so a round reports exactly what its set left out in one pass over its
 * markets, after every batch it merged in, at a fraction of the ranking's cost.
 */
export function strayPriceLegs(snapshots: readonly MarketSnapshot[], priceBound: number): ExcludedLeg[] {
  const byAsset = new Map<string, Map<string, PricedMarket>>();
  for (const snapshot of snapshots) {
    if (snapshot.fundingRate === null || snapshot.fundingIntervalHours === null) continue;
    const group = pairingKey(snapshot.base, snapshot.underlyingClass);
    let venues = byAsset.get(group);
    if (!venues) {
      venues = new Map();
      byAsset.set(group, venues);
    }
    const held = venues.get(snapshot.exchange);
    if (!held || preferred(snapshot, held.snapshot)) venues.set(snapshot.exchange, { snapshot, unitPrice: unitPrice(snapshot) });
  }
  const excluded: ExcludedLeg[] = [];
  leaveOutStrayPrices(byAsset, priceBound, excluded);
  return excluded;
}

/**
 * Takes out of each asset's markets (one a venue) those whose per-unit mark strays from the rest by
 * more than `bound` (strayPrices), adding each to `excluded`; how many. A pass over the assets, not
 * the pairs: an asset of n venues costs a pass over n prices, its n(n-1)/2 pairs nothing.
 */
function leaveOutStrayPrices(byAsset: ReadonlyMap<string, Map<string, PricedMarket>>, bound: number, excluded: ExcludedLeg[]): number {
  let count = 0;
  const prices: number[] = [];
  for (const venues of byAsset.values()) {
    if (venues.size < 2) continue;
    prices.length = 0;
    for (const market of venues.values()) prices.push(market.unitPrice);
    const stray = strayPrices(prices, bound);
    if (!stray) continue;
    const { median, outside } = stray;
    const markets = [...venues.values()];
    for (const i of outside) {
      const s = markets[i]!.snapshot;
      venues.delete(s.exchange);
      excluded.push({
        exchange: s.exchange,
        market: s.market,
        venue_base: s.venueBase,
        asset: s.base,
        ...(s.underlyingClass === undefined ? {} : { underlying_class: s.underlyingClass }),
        unit_price: prices[i]!,
        median_price: median,
      });
      count += 1;
    }
  }
  return count;
}

/**
 * Where each asset and venue falls in id order (`symbol-long-short`), so pairs of equal APR are
 * put in id order by numbers rather than by building and comparing 150,000 texts: an id's order is
 * its asset's (`symbol-` against `symbol-`), then its long venue's (`long-`), then its short
 * venue's. `exact` unless some asset or venue has a `-` in its name, when a shorter name's `x-`
 * could be the start of a longer one and only the texts themselves tell, or two pairing groups share
 * an asset (an `SPX` of two underlying classes), whose ids interleave. `symbols` is by pairing group.
 */
function idOrderPlaces(byBase: ReadonlyMap<string, ReadonlyMap<string, Candidate>>) {
  const exchangeNames = new Set<string>();
  const symbolOf = new Map<string, string>();
  for (const [group, venues] of byBase) {
    if (venues.size < 2) continue;
    for (const exchange of venues.keys()) exchangeNames.add(exchange);
    symbolOf.set(group, venues.values().next().value!.base);
  }
  const rank = (names: Iterable<string>, suffix: string, text: (name: string) => string = (name) => name) =>
    new Map([...names].sort((a, b) => compareText(text(a) + suffix, text(b) + suffix)).map((name, i) => [name, i]));
  const symbols = rank(symbolOf.keys(), "-", (group) => symbolOf.get(group)!);
  const exchanges = rank(exchangeNames, "-");
  const shortExchanges = rank(exchangeNames, "");
  const venues = exchanges.size;
  const sharedSymbol = new Set(symbolOf.values()).size < symbolOf.size;
  const exact = !sharedSymbol && ![...symbolOf.values(), ...exchanges.keys()].some((name) => name.includes("-"));
  return {
    exact,
    symbols,
    exchanges,
    shortExchanges,
    key: (long: Candidate, short: Candidate) => (long.symbolRank * venues + long.exchangeRank) * venues + short.shortExchangeRank,
  };
}

/**
 * Highest APR first, ties by id text. The APRs are radix-sorted as their IEEE 754 bits (no
 * comparisons), and only runs of equal APR then compared by id: sorting 150,000 items with a
 * comparator took 200 ms of a round.
 */
export function* byAprThenText(aprs: Float64Array, idOf: (position: number) => string): Sliced<Uint32Array> {
  const order = yield* descendingOrderSlices(aprs);
  const byId = (a: number, b: number) => compareText(idOf(a), idOf(b));
  let pausedAt = 0;
  for (let start = 0; start < order.length; ) {
    if (start - pausedAt >= SLICE_ITEMS) {
      pausedAt = start;
      yield;
    }
    let end = start + 1;
    while (end < order.length && aprs[order[end]!] === aprs[order[start]!]) end += 1;
    if (end - start > 1) order.subarray(start, end).sort(byId);
    start = end;
  }
  return order;
}

/** Each market's last interval change and settlement from stored history, by `marketKey` (lib/market/ingest/market-history.ts). */
export interface LegHistory {
  intervalChanges: ReadonlyMap<string, number>;
  settlements: ReadonlyMap<string, { rate: number; at: number }>;
}

/** What a leg is built from: a market with a rate and an interval, and its `marketKey`. */
export type LegSource = Pick<Candidate, "snapshot" | "rate" | "intervalHours" | "key">;

/**
 * One market's leg, built once and shared by every pair it is in (frozen: no pair may change
 * another's). Its last interval change comes from `history` when given, else from the snapshot; its
 * last settlement from `history` when it holds one, else from the snapshot. The carry
 * opportunities' perp legs (lib/market/carry) are built by it too, so both kinds serve one leg.
 */
export function toLeg(candidate: LegSource, history: LegHistory | undefined, isoOf: (epochMs: number) => string): OpportunityLeg {
  const { snapshot: s, rate, intervalHours } = candidate;
  const predicted = s.predictedFundingRate ?? null;
  const [cap, floor] = [s.rateCap ?? null, s.rateFloor ?? null];
  // A venue whose payload states its last settled figure (Deribit) has none in stored history.
  const settlement = history?.settlements.get(candidate.key) ?? s.lastSettlement ?? null;
  const intervalChangedAt = history ? (history.intervalChanges.get(candidate.key) ?? null) : (s.intervalChangedAt ?? null);
  // The optional fields added after, not spread in: a spread copied an object for each of a
  // round's 26,000 legs and took twice as long.
  const leg: OpportunityLeg = {
    exchange: s.exchange,
    market: s.market,
    funding_rate: rate,
    funding_interval_hours: intervalHours,
    funding_interval_source: s.fundingIntervalSource,
    funding_rate_per_hour: roundTo(rate / intervalHours, 12),
    predicted_funding_rate: predicted,
    last_settled_rate: settlement?.rate ?? null,
    last_settled_at: settlement ? isoOf(settlement.at) : null,
    rate_cap: cap,
    rate_floor: floor,
    at_cap: atCap([rate, predicted], cap, floor),
    next_funding_at: s.nextFundingAt === null ? null : isoOf(s.nextFundingAt),
    mark_price: s.markPrice,
    open_interest_usd: s.openInterestUsd,
    volume_24h_usd: s.volume24hUsd,
    interval_changed_at: intervalChangedAt === null ? null : isoOf(intervalChangedAt),
    observed_at: isoOf(s.observedAt),
    transport: s.transport ?? "poll",
  };
  if (s.underlyingClass !== undefined) leg.underlying_class = s.underlyingClass;
  if (s.tradingHours !== undefined) leg.trading_hours = s.tradingHours;
  return Object.freeze(leg);
}

/** A market as the price bound reads it: its per-unit mark copied out of its snapshot (of many shapes). */
interface PricedMarket {
  snapshot: MarketSnapshot;
  unitPrice: number;
}

/** A market's mark per unit of its asset; NaN without a mark. */
export function unitPrice(snapshot: MarketSnapshot): number {
  return snapshot.markPrice === null ? Number.NaN : snapshot.markPrice / snapshot.contractMultiplier;
}

/** Which of a venue's markets for one asset represents it: most traded, then USDT, then symbol. */
export function preferred(challenger: MarketSnapshot, holder: MarketSnapshot): boolean {
  const volume = (challenger.volume24hUsd ?? -1) - (holder.volume24hUsd ?? -1);
  if (volume !== 0) return volume > 0;
  const usdt = Number(challenger.settle === "USDT") - Number(holder.settle === "USDT");
  if (usdt !== 0) return usdt > 0;
  return compareText(challenger.market, holder.market) < 0;
}

/**
 * What pass 2 reads of each paired market, a record of FIGURES numbers per position in `paired`,
 * NaN where the market has no value. Pass 2 goes through 400,000 pairs in APR order, so each row's
 * two markets are anywhere among the 26,000: read from the markets' objects, that jumped about
 * memory twice a figure (the object, then the number's own box on the heap); from an array per
 * figure, once a figure; from one record, once or twice a side.
 */
function pairedFigures(paired: readonly Candidate[], take: TakeArray): Float64Array {
  const f = take(Float64Array, paired.length * FIGURES, OVERWRITTEN);
  for (let i = 0; i < paired.length; i++) {
    const m = paired[i]!;
    const at = i * FIGURES;
    f[at + SYMBOL] = m.symbol;
    f[at + LEG] = m.leg;
    f[at + OBSERVED] = m.observed;
    f[at + OBSERVED_AT] = m.observedAt;
    f[at + ANNUALISED_PCT] = m.annualisedPct;
    f[at + TAKER_FEE] = m.takerFee;
    f[at + RATE_8H] = ratePer8h(m);
    // Per unit of the asset, as the price spread compares them.
    f[at + UNIT_PRICE] = m.unitPrice;
    f[at + OPEN_INTEREST_USD] = m.openInterestUsd ?? Number.NaN;
    f[at + VOLUME_24H_USD] = m.volume24hUsd ?? Number.NaN;
    f[at + AVERAGE_DAY] = m.average?.day ?? Number.NaN;
    f[at + AVERAGE_WEEK] = m.average?.week ?? Number.NaN;
  }
  return f;
}

// Code-unit order, not locale order: ids must sort identically on every machine.
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
