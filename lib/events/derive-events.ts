import { toFundingIntervalChange } from "@/lib/market/model/funding-interval-change";
import type { IntervalChangeRow } from "@/lib/market/model/funding-interval-change";
import { servedAt, type Freshness } from "@/lib/market/model/leg-freshness";
import { idReader, itemReader, newArray, OVERWRITTEN, type OpportunityColumns, type TakeArray } from "@/lib/market/opportunities/opportunity-columns";
import type { PartialAssets } from "@/lib/market/opportunities/pair-scope";
import type { PairRows, PatchedSet } from "@/lib/market/opportunities/patched-set";
import type { ServedOpportunity } from "@/lib/market/model/types";
import { runInSlices, runWhole, type Sliced } from "@/lib/time-slices";
import type { NewEvent } from "./event-data";

/** The default of EVENTS_NET_APR_THRESHOLD: net APR moves smaller than this (in APR points) are noise, not news. */
export const DEFAULT_NET_APR_THRESHOLD = 5;

// Net APRs are rounded to a few decimals; a move of exactly the threshold must count whatever the float error.
const EPSILON = 1e-9;

export interface OpportunityDiffOptions {
  /** `opportunity.updated` when |net APR now − net APR before| is at least this many APR points. */
  threshold: number;
  /** When the new set is published and how old a leg may be, for the served items' `stale` flags and `age_seconds`. */
  freshness: Freshness;
  /** The new set's `data_as_of`, for legs without their own observation time. */
  asOf: string | null;
  /**
   * The previous set's items are in no particular order (runs of several columns, PatchedSet.runsInSlices):
   * the closed events are put in set order (highest last APR first, ties by id), as an ordered set
   * gives them.
   */
  previousUnordered?: boolean;
  /** Where the diff takes its working arrays (a round's kept between rounds: ScratchArrays); new ones unless given. */
  take?: TakeArray;
}

/**
 * The opportunity events between two consecutive published sets, by id: in the new set only
 * `opportunity.opened`, in both with net APR moved by at least the threshold `opportunity.updated`,
 * in the old set only `opportunity.closed`. One pass over each set's columns with an index of the
 * old set's ids (a live set holds ~150k items; only the items an event carries are built as
 * objects); opened and updated in the new set's order, then closed in the old set's. The old set
 * may be given as runs of rows of several columns (a round's set with micro-batches' pairs over
 * it), read where they are: copying 420,000 pairs into one set first was most of the diff's work.
 * Pure.
 */
export function opportunityEvents(previous: OpportunityColumns | readonly PairRows[], current: OpportunityColumns, options: OpportunityDiffOptions): NewEvent[] {
  return runWhole(opportunityEventSlices(previous, current, options));
}

/**
 * `opportunityEvents` giving the event loop a turn every `sliceMs` (lib/time-slices.ts): the same
 * events in the same order, for a round's whole set on a thread that also serves requests. Neither
 * set may change until it resolves.
 */
export function opportunityEventsInSlices(
  previous: OpportunityColumns | readonly PairRows[],
  current: OpportunityColumns,
  options: OpportunityDiffOptions,
  sliceMs?: number,
): Promise<NewEvent[]> {
  return runInSlices(opportunityEventSlices(previous, current, options), sliceMs);
}

/**
 * How many items of either set the diff passes between two of its pause points: few enough that
 * a stretch where most items changed (each an event, its item built) stays within a slice.
 */
const SLICE_ITEMS = 1_024;

/**
 * The old set's items numbered one after another through its runs: item `p` is row `row[p]` of
 * `runs[run[p]].columns`. One pass lays them out, so every later pass reads them by number.
 */
function oldItems(previous: OpportunityColumns | readonly PairRows[], take: TakeArray) {
  const runs = "count" in previous ? [{ columns: previous, rows: null }] : previous;
  const count = runs.reduce((n, r) => n + (r.rows ? r.rows.length : r.columns.count), 0);
  const [run, row] = [take(Uint32Array, count, OVERWRITTEN), take(Uint32Array, count, OVERWRITTEN)];
  let p = 0;
  for (let i = 0; i < runs.length; i++) {
    const r = runs[i]!;
    const length = r.rows ? r.rows.length : r.columns.count;
    for (let k = 0; k < length; k++, p++) {
      run[p] = i;
      row[p] = r.rows ? r.rows[k]! : k;
    }
  }
  return { runs, run, row, count };
}

function* opportunityEventSlices(previous: OpportunityColumns | readonly PairRows[], current: OpportunityColumns, options: OpportunityDiffOptions): Sliced<NewEvent[]> {
  const take = options.take ?? newArray;
  const old = oldItems(previous, take);
  const before = oldItemIndex(old, current, take);
  yield;
  // A loop, not Float64Array.from with a mapping function, which goes through the iterator
  // protocol: an object and a heap number for each of 450,000 items, 35 MB a round.
  const netBefore = take(Float64Array, old.count, OVERWRITTEN);
  for (let p = 0; p < old.count; p++) netBefore[p] = old.runs[old.run[p]!]!.columns.net_apr.values[old.row[p]!]!;
  yield;
  const events: NewEvent[] = [];
  const item = itemReader(current);
  const served = (i: number): ServedOpportunity => {
    return servedAt(item(i), options.asOf, options.freshness);
  };
  const netNow = current.net_apr.values;
  // Which old items the new set still has: what is left unmatched was closed.
  const kept = new Uint8Array(old.count);
  for (let i = 0; i < current.count; i++) {
    if (i % SLICE_ITEMS === SLICE_ITEMS - 1) yield;
    const position = before.take(i);
    if (position === undefined) {
      events.push({ type: "opportunity.opened", data: { opportunity: served(i) } });
    } else {
      kept[position] = 1;
      if (Math.abs(netNow[i]! - netBefore[position]!) + EPSILON >= options.threshold) {
        events.push({ type: "opportunity.updated", data: { opportunity: served(i), previous_net_apr: netBefore[position]! } });
      }
    }
  }
  const closed: Extract<NewEvent, { type: "opportunity.closed" }>[] = [];
  const idsBefore = old.runs.map((run) => idReader(run.columns));
  for (let p = 0; p < old.count; p++) {
    if (p % SLICE_ITEMS === SLICE_ITEMS - 1) yield;
    if (kept[p]) continue;
    const [{ columns }, row] = [old.runs[old.run[p]!]!, old.row[p]!];
    const [long, short] = [columns.legs[columns.long[row]!]!, columns.legs[columns.short[row]!]!];
    closed.push({
      type: "opportunity.closed",
      data: {
        id: idsBefore[old.run[p]!]!(row),
        symbol: columns.texts[columns.symbol[row]!]!,
        long: { exchange: long.exchange, market: long.market },
        short: { exchange: short.exchange, market: short.market },
        last_apr: columns.apr.values[row]!,
        last_net_apr: netBefore[p]!,
      },
    });
  }
  if (options.previousUnordered) {
    yield;
    closed.sort((a, b) => b.data.last_apr - a.data.last_apr || (a.data.id < b.data.id ? -1 : a.data.id > b.data.id ? 1 : 0));
  }
  for (const event of closed) events.push(event);
  return events;
}

/**
 * `opportunityEvents` for the pairs of `bases` only, as a micro-batch re-ranks them: the events
 * between those assets' pairs in `previous` and `items` (all of their pairs now, in set order; of
 * an asset in `partial`, those with a leg on one of its venues there, on both sides), with the same
 * types and threshold as a round's. Costs the batch's width, not the set's. Pure.
 */
export function opportunityEventsOf(
  previous: PatchedSet,
  bases: ReadonlySet<string>,
  items: OpportunityColumns,
  partial: PartialAssets | undefined,
  options: OpportunityDiffOptions,
): NewEvent[] {
  return opportunityEvents(previous.rowsOf(bases, partial), items, options);
}

/** At most this many places in a dense index (16 M: a 64 MB table); beyond, the index is a Map. */
const DENSE_PLACES = 2 ** 24;

/**
 * The old set's items by identity, each found at most once (`take`: the position of the old item
 * with the new item's identity, the first time it is asked). Ranked sets' ids are the standard
 * `symbol-long-short` (`OpportunityColumns.ids` null), so an identity is the places of the asset
 * and the two venues, and the index a table with a slot for each such triple: 150,000 ids are
 * neither built nor hashed. Sets with ids of their own, or too many triples, are indexed by id.
 */
function oldItemIndex(old: ReturnType<typeof oldItems>, current: OpportunityColumns, takeArray: TakeArray): { take(i: number): number | undefined } {
  const byId = () => {
    const idNow = idReader(current);
    const idsBefore = old.runs.map((run) => idReader(run.columns));
    const found = new Map<string, number>();
    for (let p = 0; p < old.count; p++) found.set(idsBefore[old.run[p]!]!(old.row[p]!), p);
    return {
      take(i: number) {
        const id = idNow(i);
        const held = found.get(id);
        found.delete(id);
        return held;
      },
    };
  };
  if (current.ids || old.runs.some((run) => run.columns.ids)) return byId();
  const [assetPlaces, venuePlaces] = [new Map<string, number>(), new Map<string, number>()];
  const place = (names: Map<string, number>, name: string) => {
    let at = names.get(name);
    if (at === undefined) names.set(name, (at = names.size));
    return at;
  };
  const placesOf = (set: OpportunityColumns): ItemPlaces => ({
    assets: set.texts.map((text) => place(assetPlaces, text)),
    venues: set.legs.map((leg) => place(venuePlaces, leg.exchange)),
  });
  const placesOfColumns = new Map<OpportunityColumns, ItemPlaces>();
  const placesBefore = old.runs.map(({ columns }) => {
    let places = placesOfColumns.get(columns);
    if (!places) placesOfColumns.set(columns, (places = placesOf(columns)));
    return places;
  });
  const now = placesOf(current);
  const venues = venuePlaces.size;
  if (assetPlaces.size * venues * venues > DENSE_PLACES) return byId();
  // Each slot holds its old item's position + 1; 0 is empty, or taken.
  const slots = takeArray(Uint32Array, assetPlaces.size * venues * venues);
  for (let p = 0; p < old.count; p++) {
    const r = old.run[p]!;
    slots[slotOf(old.runs[r]!.columns, placesBefore[r]!, venues, old.row[p]!)] = p + 1;
  }
  return new SlotIndex(slots, current, now, venues);
}

/** Where an item's asset and venues fall among both sets' (oldItemIndex). */
interface ItemPlaces {
  assets: number[];
  venues: number[];
}

/** The slot of item `i` of `set`: its asset's place, then its long venue's, then its short venue's. */
function slotOf(set: OpportunityColumns, places: ItemPlaces, venues: number, i: number): number {
  return (places.assets[set.symbol[i]!]! * venues + places.venues[set.long[i]!]!) * venues + places.venues[set.short[i]!]!;
}

/**
 * The old set's items by slot, taken by the new set's (oldItemIndex). A class, not an object of
 * closures made by each diff: V8 keeps a closure's optimised code only while a closure of it lives
 * (its feedback holds the code weakly), so each round's diff compiled them again (--trace-opt).
 */
class SlotIndex {
  constructor(
    private readonly slots: Uint32Array,
    private readonly current: OpportunityColumns,
    private readonly places: ItemPlaces,
    private readonly venues: number,
  ) {}

  take(i: number): number | undefined {
    const slot = slotOf(this.current, this.places, this.venues, i);
    const held = this.slots[slot]!;
    this.slots[slot] = 0;
    return held === 0 ? undefined : held - 1;
  }
}

/** One `funding_interval.changed` per change a round (or a sandbox tick) detected, as GET /v1/funding-intervals serves it. Pure. */
export function intervalChangeEvents(changes: readonly IntervalChangeRow[]): NewEvent[] {
  return changes.map((row) => ({ type: "funding_interval.changed", data: { change: toFundingIntervalChange(row) } }));
}

/** A venue's health as the log compares it: its status after a refresh and its last success. */
export interface VenueState {
  status: "ok" | "stale";
  lastSuccessAt: Date | null;
  error: string | null;
}

/**
 * `venue.stale` for a venue that was ok and is now stale, `venue.recovered` for the reverse, in the
 * order of `after`. A venue with no earlier state (its first refresh) is announced only when that
 * refresh failed: a venue that never succeeded is stale as much as one that stopped. Pure.
 */
export function venueHealthEvents(before: ReadonlyMap<string, VenueState>, after: readonly (VenueState & { exchange: string })[]): NewEvent[] {
  const events: NewEvent[] = [];
  for (const venue of after) {
    const was = before.get(venue.exchange);
    if (was ? was.status === venue.status : venue.status === "ok") continue;
    const data = {
      exchange: venue.exchange,
      status: venue.status,
      last_success_at: venue.lastSuccessAt?.toISOString() ?? null,
      error: venue.status === "stale" ? venue.error : null,
    };
    events.push(venue.status === "stale" ? { type: "venue.stale", data } : { type: "venue.recovered", data });
  }
  return events;
}
