import { z } from "zod";
import { numberParam, pageParams } from "@/lib/query-params";
import { ageSeconds, isStale, legAtAnswer, legObservedMs, nextStaleAt, servedOpportunity, type Freshness } from "../model/leg-freshness";
import { baseAssetParam, exchangeListParam, exchangeParam } from "../model/market-params";
import type { Opportunity, OpportunityLeg, ServedOpportunity } from "../model/types";
import { columnsOf, type OpportunityColumns } from "./encoding/columns";
import { groupSlices, groupsOf, mergeGroups, spliceGroups } from "./opportunity-groups";
import { replacesPair, type PartialAssets } from "./pair-scope";
import { entryBefore } from "./set-entries";
import { entrySlices, ServedRows, type NumberColumnName } from "./served-rows";
import { spliceEntries, spliceEntrySlices } from "./splice-opportunities";
import { runInSlices, runWhole, type Sliced } from "@/lib/time-slices";

export const SORTS = ["apr", "-apr", "net_apr", "-net_apr", "open_interest", "-open_interest", "stability", "-stability"] as const;
export type Sort = (typeof SORTS)[number];

/**
 * The filters of GET /v1/opportunities, which the screener page reads from its URL too: one
 * schema, so the page and the API accept and refuse exactly the same queries.
 */
export const opportunitiesQuery = z.strictObject({
  ...pageParams(100, 50),
  type: z
    .enum(["perp_perp"], "Must be perp_perp: spot–perpetual carry (spot_perp, perp_spot) is listed by /v1/carry-opportunities")
    .optional()
    .describe("`perp_perp`, the only type listed here (every item is a pair of perpetuals); carry types are listed by /v1/carry-opportunities."),
  exchange: exchangeParam()
    .optional()
    .describe("Only opportunities with a leg on this exchange (either leg)."),
  exchanges: exchangeListParam()
    .optional()
    .describe("Only opportunities with both legs on these exchanges, separated by commas (the venues you trade on), e.g. `binance,okx,hyperliquid`."),
  min_apr: numberParam().optional().describe("Only opportunities whose gross `apr` is at least this, in percent per year (10 = 10 %)."),
  symbol: baseAssetParam()
    .optional()
    .describe("Only this base asset, e.g. BTC (case-insensitive)."),
  sort: z
    .enum(SORTS, `Must be one of: ${SORTS.join(", ")}`)
    .default("-apr")
    .describe(
      "Sort field; a leading - sorts descending. `stability` lists the steadiest spreads first: highest " +
        "`persistence.paid_share_7d`, then lowest `persistence.apr_stddev_7d`; `-stability` the reverse. Unknown values go last " +
        "either way (open interest a venue does not publish, persistence without enough history). Ties are broken by id, so pages are stable.",
    ),
});

export interface OpportunityFilter {
  limit: number;
  offset: number;
  /** Every item is a perp pair: accepted so `type=` reads alike on both lists, and filters nothing. */
  type?: "perp_perp";
  exchange?: string;
  /** Both legs among these (sorted, no repeats). */
  exchanges?: readonly string[];
  min_apr?: number;
  symbol?: string;
  sort: Sort;
}

/** How many items' JSON one set keeps (see OpportunitySnapshot.jsonOf). */
export const MAX_CACHED_JSON = 20_000;

/** How long an answer carrying legs' `age_seconds` may be reused: the ages are whole seconds. */
export const AGE_REUSE_MS = 1_000;

/** Which legs of an item are stale: bit 1 the long leg, bit 2 the short one. */
type StaleLegs = 0 | 1 | 2 | 3;

/**
 * Stand-ins for the legs' ages in a cached JSON text, split out of it so the ages of the moment
 * of each answer go in between. A quote cannot follow a text's characters unescaped inside a JSON
 * string, so no value of the item can contain them with their quotes.
 */
const LONG_AGE = "@@long-age@@";
const SHORT_AGE = "@@short-age@@";

/** An item's served JSON, cut where the long and the short leg's `age_seconds` go. */
type JsonTemplate = readonly [before: string, between: string, after: string];

function ageJson(age: number | null): string {
  return age === null ? "null" : String(age);
}

/** How many items a set keeps built (see ItemCaches.item): the pages clients poll, as for their JSON. */
const MAX_CACHED_ITEMS = MAX_CACHED_JSON;

/**
 * What sets spliced from one another (at one moment: `asOf`, `sample`) share: the columns their
 * entries are rows of (served-rows.ts), the items built from them and each item's legs' observed
 * times and JSON. A set spliced from another keeps its kept entries' items, so a micro-batch
 * leaves the served JSON of the items it kept as it was.
 */
class ItemCaches {
  readonly rows = new ServedRows();
  readonly json = new WeakMap<Opportunity, (JsonTemplate | undefined)[]>();
  readonly observed = new WeakMap<Opportunity, readonly [long: number, short: number]>();
  /** Items built, by entry: at most MAX_CACHED_ITEMS, past which an item is built for each answer. */
  private readonly items = new Map<number, Opportunity>();
  /** Which items `items` holds, so that only theirs have JSON kept (`keep`). */
  private readonly kept = new WeakSet<Opportunity>();
  /** How many JSON texts `json` holds for the items of the latest set sharing it (see OpportunitySnapshot.jsonOf). */
  cachedJson = 0;
  /** How many of `items` each asset has: a batch looks for items to drop only in the groups that have some. */
  private readonly itemsByAsset = new Map<string, number>();

  /** The entry's item: built once while MAX_CACHED_ITEMS are not held, else anew. */
  item(entry: number): Opportunity {
    let item = this.items.get(entry);
    if (item) return item;
    item = this.rows.item(entry);
    if (this.items.size < MAX_CACHED_ITEMS) {
      this.items.set(entry, item);
      this.kept.add(item);
      this.itemsByAsset.set(item.symbol, (this.itemsByAsset.get(item.symbol) ?? 0) + 1);
    }
    return item;
  }

  /** Keeps `template` as the item's JSON in `state`, for an item held in `items` and while the bound allows. */
  keep(item: Opportunity, state: StaleLegs, template: JsonTemplate): void {
    if (this.cachedJson >= MAX_CACHED_JSON || !this.kept.has(item)) return;
    let texts = this.json.get(item);
    if (!texts) this.json.set(item, (texts = []));
    if (texts[state] === undefined) this.cachedJson += 1;
    texts[state] = template;
  }

  /** Drops the items of an asset's replaced entries and their texts, so that the bounds count what is served. */
  forget(symbol: string, replaced: readonly number[]): void {
    let held = this.itemsByAsset.get(symbol);
    if (held === undefined) return;
    for (const entry of replaced) {
      const item = this.items.get(entry);
      if (!item) continue;
      this.items.delete(entry);
      held -= 1;
      for (const text of this.json.get(item) ?? []) if (text !== undefined) this.cachedJson -= 1;
      this.json.delete(item);
    }
    if (held > 0) this.itemsByAsset.set(symbol, held);
    else this.itemsByAsset.delete(symbol);
  }
}

/** A micro-batch as a set takes it: every entry of `bases` replaced by `replacement`, in set order; `count` entries after it. */
interface Batch {
  bases: ReadonlySet<string>;
  replacement: readonly number[];
  count: number;
  /** Of `bases`, the assets replaced in part (pair-scope.ts). */
  partial: PartialAssets | undefined;
}

/**
 * How many batches a spliced set's list is spliced through from the last list built, past which it
 * is merged from its groups: a merge of ~1,900 groups (a heap) costs four or five splices of the
 * list (150,000 items, a batch of 100 assets: ~85 ms against ~15–20 ms, on a loaded machine).
 */
const MAX_PENDING_BATCHES = 3;

/** A set spliced from another (OpportunitySnapshot.spliced): its groups, and how to build its whole list. */
interface SplicedSet {
  groups: Map<string, readonly number[]>;
  count: number;
  /**
   * A list in set order and the batches spliced since (at most MAX_PENDING_BATCHES), when a set
   * this one was spliced from had its list built: spliced rather than merged (`spliceEntries`).
   */
  from: { list: readonly number[]; batches: readonly Batch[] } | undefined;
  caches: ItemCaches;
  standardIds: boolean;
}

/**
 * An opportunity set as served: entries in its columns (served-rows.ts), each sort order computed
 * once per set, and the items of what is served built from them. An item's JSON depends on which
 * of its legs are stale at the moment of serving (lib/market/model/leg-freshness.ts), which changes
 * at most twice in a set's life, so it is kept per item and per state, with the legs' ages (which
 * change every second) left out and put in for each answer.
 *
 * The set is also held by asset (opportunity-groups.ts): a micro-batch makes the next set from this
 * one by replacing its assets' groups (`spliced`), a query for one asset reads its group only, and
 * the whole list of a spliced set is built when first read.
 */
export class OpportunitySnapshot {
  private readonly sorted = new Map<Sort, readonly number[]>();
  private list: readonly number[] | undefined;
  private groups: Map<string, readonly number[]> | undefined;
  private from: SplicedSet["from"];
  /** Whether `list` is in `-apr` order by construction (a spliced set), not to be checked. */
  private readonly ranked: boolean;
  private readonly caches: ItemCaches;
  /** Whether every entry's id starts with its asset and a dash (`opportunityId`'s); known once grouped. */
  private standardIds: boolean | undefined;
  private ids: Map<string, number> | undefined;
  /** How many items the set has. */
  readonly count: number;

  /** How many item JSON texts this set holds. */
  get cachedJsonItems(): number {
    return this.caches.cachedJson;
  }

  /** `items`, or a set in columns, in any order (checked, or sorted, for `-apr` when first asked); or a spliced set (`spliced`). */
  constructor(
    items: readonly Opportunity[] | OpportunityColumns | SplicedSet,
    readonly asOf: string | null,
    readonly sample: boolean,
  ) {
    if (!("groups" in items)) {
      this.caches = new ItemCaches();
      const columns = Array.isArray(items) ? columnsOf(items) : (items as OpportunityColumns);
      this.list = runWhole(entrySlices(this.caches.rows.add(columns), columns));
      this.count = columns.count;
      this.ranked = false;
    } else {
      this.groups = items.groups;
      this.count = items.count;
      this.from = items.from;
      this.ranked = true;
      this.caches = items.caches;
      this.standardIds = items.standardIds;
    }
  }

  /**
   * A round's set in columns, in set order as every ranked set is (`rankedBefore`), with the
   * assets of `carried` taken from its pairs rather than the set's (a round's set with the pairs
   * batches published while it ranked: LiveOpportunities.applyRound). Its entries, their merge and
   * their groups by asset are built in slices (lib/time-slices.ts), the thread serving meanwhile.
   * The columns must not change while the set is served.
   */
  static async rankedInSlices(
    set: OpportunityColumns,
    asOf: string | null,
    sample: boolean,
    sliceMs?: number,
    carried?: { bases: ReadonlySet<string>; pairs: OpportunityColumns },
  ): Promise<OpportunitySnapshot> {
    const caches = new ItemCaches();
    const { rows } = caches;
    let list = await runInSlices(entrySlices(rows.add(set), set, carried?.bases), sliceMs);
    let standard = await runInSlices(standardIdSlices(rows, set, list), sliceMs);
    if (carried) {
      const { pairs } = carried;
      const ofCarried = await runInSlices(entrySlices(rows.add(pairs), pairs), sliceMs);
      // The round's rows of those assets are left out already: a merge, nothing to drop.
      list = await runInSlices(spliceEntrySlices(rows, list, new Set(), ofCarried, list.length + ofCarried.length), sliceMs);
      standard &&= await runInSlices(standardIdSlices(rows, pairs, ofCarried), sliceMs);
    }
    return OpportunitySnapshot.grouped(caches, list, standard, asOf, sample, sliceMs);
  }

  /**
   * A stored set (another process published it): as `rankedInSlices` when its rows are in set
   * order, as every ranked set's are (checked in slices), else as a list sorted when first asked.
   */
  static async storedInSlices(set: OpportunityColumns, asOf: string | null, sample: boolean, sliceMs?: number): Promise<OpportunitySnapshot> {
    const caches = new ItemCaches();
    const list = await runInSlices(entrySlices(caches.rows.add(set), set), sliceMs);
    if (!(await runInSlices(aprOrderSlices(list, caches.rows), sliceMs))) return new OpportunitySnapshot(set, asOf, sample);
    return OpportunitySnapshot.grouped(caches, list, await runInSlices(standardIdSlices(caches.rows, set, list), sliceMs), asOf, sample, sliceMs);
  }

  /** The set of `list`, in set order, its groups by asset built in slices. */
  private static async grouped(caches: ItemCaches, list: readonly number[], standardIds: boolean, asOf: string | null, sample: boolean, sliceMs: number | undefined): Promise<OpportunitySnapshot> {
    const groups = await runInSlices(groupSlices(caches.rows, list), sliceMs);
    return new OpportunitySnapshot({ groups, count: list.length, from: { list, batches: [] }, caches, standardIds }, asOf, sample);
  }

  /** Every item, built; a spliced set's in set order (`-apr`). For tests and small sets: a served set's answers build only what they serve. */
  get items(): readonly Opportunity[] {
    return this.entries().map((entry) => this.caches.item(entry));
  }

  /** Every entry; a spliced set's in set order (`-apr`), built once, when first read. */
  private entries(): readonly number[] {
    if (!this.list) {
      const from = this.from;
      const rows = this.caches.rows;
      this.list = from ? from.batches.reduce((list, b) => spliceEntries(rows, list, b.bases, b.replacement, b.count, b.partial), from.list) : mergeGroups(rows, this.groups!);
      this.from = undefined;
    }
    return this.list;
  }

  /**
   * The set with every pair of `bases` replaced by the rows of `replacement` (those assets
   * re-ranked, in set order; of an asset in `partial`, its pairs with a leg on one of its venues
   * there), at this set's moment: its groups copied with those assets' replaced, sharing this set's
   * columns and item caches. The replaced items are dropped from the caches. The columns of
   * `replacement` must not change while the set is served.
   */
  spliced(bases: ReadonlySet<string>, replacement: OpportunityColumns, partial?: PartialAssets): OpportunitySnapshot {
    const rows = this.caches.rows;
    const entries = runWhole(entrySlices(rows.add(replacement), replacement));
    const groups = this.groupMap();
    let count = this.count + entries.length;
    for (const base of bases) {
      const group = groups.get(base) ?? [];
      const replaced = partial?.has(base) ? group.filter((entry) => replacesPair(bases, partial, base, rows.long(entry), rows.short(entry))) : group;
      count -= replaced.length;
      this.caches.forget(base, replaced);
    }
    const list = this.ranked ? this.list : this.sorted.get("-apr");
    const batch = { bases, replacement: entries, count, partial };
    // Spliced from this set's list if built, else from the list this set's is spliced from, unless too many batches back.
    const pending = this.from && this.from.batches.length < MAX_PENDING_BATCHES ? { list: this.from.list, batches: [...this.from.batches, batch] } : undefined;
    const from = list ? { list, batches: [batch] } : pending;
    return new OpportunitySnapshot(
      {
        groups: spliceGroups(rows, groups, bases, entries, partial),
        count,
        from,
        caches: this.caches,
        standardIds: this.standardIds! && runWhole(standardIdSlices(rows, replacement, entries)),
      },
      this.asOf,
      this.sample,
    );
  }

  /** The entries in `sort`'s order. */
  private inOrder(sort: Sort): readonly number[] {
    if (sort === "-apr" && this.ranked) return this.entries();
    let list = this.sorted.get(sort);
    if (!list) {
      // A published set is held in its ranked order, which is `-apr`'s: checked in one pass, not sorted again.
      const entries = this.entries();
      const rows = this.caches.rows;
      list = sort === "-apr" && runWhole(aprOrderSlices(entries, rows)) ? entries : sortedEntries(entries, sort, rows);
      this.sorted.set(sort, list);
    }
    return list;
  }

  /** The entries of asset `symbol` in `sort`'s order; none when the set has none. */
  private groupInOrder(symbol: string, sort: Sort): readonly number[] {
    const group = this.groupMap().get(symbol) ?? [];
    return sort === "-apr" ? group : sortedEntries(group, sort, this.caches.rows);
  }

  /** The items of asset `symbol` in set order (`-apr`). */
  groupOf(symbol: string): readonly Opportunity[] {
    return this.groupInOrder(symbol, "-apr").map((entry) => this.caches.item(entry));
  }

  /**
   * The item of id `id`, if the set has one: looked up in the group of the asset its id starts
   * with, as standard ids do (`opportunityId`; an asset may contain a dash, so each prefix is
   * tried); in a map of every id, built once, for a set with other ids.
   */
  byId(id: string): Opportunity | undefined {
    const entry = this.entryOf(id);
    return entry === undefined ? undefined : this.caches.item(entry);
  }

  private entryOf(id: string): number | undefined {
    const groups = this.groupMap();
    const rows = this.caches.rows;
    if (this.standardIds) {
      for (let dash = id.indexOf("-"); dash > 0; dash = id.indexOf("-", dash + 1)) {
        const found = groups.get(id.slice(0, dash))?.find((entry) => rows.id(entry) === id);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    if (!this.ids) {
      this.ids = new Map();
      for (const entry of this.entries()) {
        const own = rows.id(entry);
        if (!this.ids.has(own)) this.ids.set(own, entry);
      }
    }
    return this.ids.get(id);
  }

  /** Each venue of the set with one of its legs: the first in set order. */
  legsByVenue(): Map<string, OpportunityLeg> {
    const legs = new Map<string, OpportunityLeg>();
    const rows = this.caches.rows;
    for (const entry of this.entries()) for (const leg of rows.legs(entry)) if (!legs.has(leg.exchange)) legs.set(leg.exchange, leg);
    return legs;
  }

  private groupMap(): Map<string, readonly number[]> {
    if (!this.groups) {
      const ordered = this.inOrder("-apr");
      const rows = this.caches.rows;
      this.groups = groupsOf(rows, ordered);
      this.standardIds = ordered.every((entry) => hasStandardId(rows, entry));
    }
    return this.groups;
  }

  /** The page of the set `filter` asks for (queryOpportunities), its items built. */
  query(filter: OpportunityFilter): OpportunityPage {
    const { exchange, exchanges, min_apr, offset, limit } = filter;
    const ordered = filter.symbol === undefined ? this.inOrder(filter.sort) : this.groupInOrder(filter.symbol, filter.sort);
    const rows = this.caches.rows;
    const filtered =
      exchange === undefined && exchanges === undefined && min_apr === undefined
        ? ordered
        : ordered.filter((entry) => {
            const long = rows.long(entry);
            const short = rows.short(entry);
            return (
              (exchange === undefined || long === exchange || short === exchange) &&
              (exchanges === undefined || (exchanges.includes(long) && exchanges.includes(short))) &&
              (min_apr === undefined || rows.apr(entry) >= min_apr)
            );
          });
    const items = filtered.slice(offset, offset + limit).map((entry) => this.caches.item(entry));
    return { items, total: filtered.length, limit, offset, has_more: offset + items.length < filtered.length };
  }

  /** Epoch ms each leg's numbers are from (`legObservedMs`), read once per item. */
  observedAt(item: Opportunity): readonly [long: number, short: number] {
    let at = this.caches.observed.get(item);
    if (!at) {
      at = [legObservedMs(item.long, this.asOf), legObservedMs(item.short, this.asOf)];
      this.caches.observed.set(item, at);
    }
    return at;
  }

  /** The item as served at `f`: each leg with its age then, and flagged when it is stale then. */
  served(item: Opportunity, f: Freshness): ServedOpportunity {
    const [long, short] = this.observedAt(item);
    return servedOpportunity(item, legAtAnswer(long, f), legAtAnswer(short, f));
  }

  /**
   * The served item's JSON text, serialised once per set and staleness rather than once per
   * request (the ages put in per answer), for the items the set keeps built (MAX_CACHED_ITEMS, the
   * first asked for: the pages clients poll). A set of 46 venues × 600 assets has ~450k items,
   * ~1.5 KB of JSON each, so caching every one a client pages through would hold ~650 MB per set;
   * past the bound an item is serialised per request.
   */
  jsonOf(item: Opportunity, f: Freshness): string {
    const [long, short] = this.observedAt(item);
    const template = this.templateOf(item, f);
    return template[0] + ageJson(ageSeconds(long, f.at)) + template[1] + ageJson(ageSeconds(short, f.at)) + template[2];
  }

  /** The item's JSON at `f` without its legs' ages: what it says, apart from the clock. */
  private tagJsonOf(item: Opportunity, f: Freshness): string {
    return this.templateOf(item, f).join("");
  }

  /** The item's JSON at `f`'s staleness in three parts around its legs' ages, cached as `jsonOf` says. */
  private templateOf(item: Opportunity, f: Freshness): JsonTemplate {
    const [long, short] = this.observedAt(item);
    const state = ((isStale(long, f) ? 1 : 0) | (isStale(short, f) ? 2 : 0)) as StaleLegs;
    let template = this.caches.json.get(item)?.[state];
    if (template === undefined) {
      template = this.template(item, state);
      this.caches.keep(item, state, template);
    }
    return template;
  }

  private template(item: Opportunity, state: StaleLegs): JsonTemplate {
    const served = servedOpportunity(
      item,
      { stale: (state & 1) !== 0, age_seconds: LONG_AGE as unknown as number },
      { stale: (state & 2) !== 0, age_seconds: SHORT_AGE as unknown as number },
    );
    const [before, rest] = JSON.stringify(served).split(`"${LONG_AGE}"`) as [string, string];
    const [between, after] = rest.split(`"${SHORT_AGE}"`) as [string, string];
    return [before, between, after];
  }

  /**
   * `JSON.stringify` of a page of this set as served at `f`, byte for byte, assembled from the
   * items' cached JSON: serialising a 50-item page on every request would be half of
   * /v1/opportunities' CPU time.
   */
  pageJson(page: OpportunityPage, f: Freshness): string {
    return this.pageOf(page, (item) => this.jsonOf(item, f));
  }

  /**
   * `pageJson` without the legs' ages, which move every second: what the page says apart from the
   * clock, for its ETag (HandlerResult.tagJson).
   */
  pageTagJson(page: OpportunityPage, f: Freshness): string {
    return this.pageOf(page, (item) => this.tagJsonOf(item, f));
  }

  private pageOf(page: OpportunityPage, itemJson: (item: Opportunity) => string): string {
    const items = page.items.map(itemJson).join(",");
    return `{"items":[${items}],"total":${page.total},"limit":${page.limit},"offset":${page.offset},"has_more":${page.has_more}}`;
  }

  /**
   * Until when an answer serving `items` at `f` may be reused: until one of their legs turns stale,
   * and at most AGE_REUSE_MS, as the legs' ages move every second; undefined for no items.
   */
  validUntil(items: readonly Opportunity[], f: Freshness): number | undefined {
    if (items.length === 0) return this.nextStaleAt(items, f);
    return Math.min(this.nextStaleAt(items, f) ?? Infinity, f.at + AGE_REUSE_MS);
  }

  /** The first moment after `f.at` at which a leg of `items` turns stale; undefined when none will. */
  nextStaleAt(items: readonly Opportunity[], f: Freshness): number | undefined {
    return nextStaleAt(
      items.flatMap((item) => this.observedAt(item)),
      f,
    );
  }
}

/** Whether the entry is found in its asset's group by its id (OpportunitySnapshot.byId). */
function hasStandardId(rows: ServedRows, entry: number): boolean {
  const [id, symbol] = [rows.id(entry), rows.symbol(entry)];
  return id.length > symbol.length && id.startsWith(symbol) && id[symbol.length] === "-";
}

/** Entries checked between two pause points of `standardIdSlices` and `aprOrderSlices`. */
const CHECKED_A_SLICE = 8_192;

/**
 * Whether every one of `entries`, rows of `columns`, has a standard id (`hasStandardId`): known
 * without a look for columns without ids; else checked, pausing every CHECKED_A_SLICE entries: a
 * freshly built id is a joined text, which checking flattens (~170 ms at once for 420,000 items).
 */
function* standardIdSlices(rows: ServedRows, columns: OpportunityColumns, entries: readonly number[]): Sliced<boolean> {
  if (columns.ids === null) return true;
  for (let i = 0; i < entries.length; i++) {
    if (i % CHECKED_A_SLICE === CHECKED_A_SLICE - 1) yield;
    if (!hasStandardId(rows, entries[i]!)) return false;
  }
  return true;
}

/** Whether `entries` are in the ranked set's order (`-apr`), pausing every CHECKED_A_SLICE entries. */
function* aprOrderSlices(entries: readonly number[], rows: ServedRows): Sliced<boolean> {
  for (let i = 1; i < entries.length; i++) {
    if (i % CHECKED_A_SLICE === 0) yield;
    if (entryBefore(rows, entries[i]!, entries[i - 1]!)) return false;
  }
  return true;
}

/** One key of an order: the value compared, and whether larger values come first. */
type SortKey = [column: NumberColumnName, largestFirst: boolean];

/**
 * The keys of each sort, compared in turn. `stability` is "paid most often, then least volatile":
 * the steadiest first, so its plain form is the useful one, and `-stability` reverses both keys.
 */
function sortKeys(sort: Sort): SortKey[] {
  const descending = sort.startsWith("-");
  switch (sort.replace(/^-/, "")) {
    case "apr":
      return [["apr", descending]];
    case "net_apr":
      return [["net_apr", descending]];
    case "open_interest":
      return [["open_interest_usd", descending]];
    default:
      return [
        ["persistence.paid_share_7d", !descending],
        ["persistence.apr_stddev_7d", descending],
      ];
  }
}

/**
 * `entries` in `sort`'s order. The keys are read out first, one array of values each (NaN for an
 * unknown value), so the sort compares numbers rather than reading the columns; ids, built for
 * ties only, are kept once built.
 */
function sortedEntries(entries: readonly number[], sort: Sort, rows: ServedRows): number[] {
  const keys = sortKeys(sort).map(([column, largestFirst]) => ({
    values: entries.map((entry) => rows.number(entry, column) ?? Number.NaN),
    largestFirst,
  }));
  const ids = new Array<string | undefined>(entries.length);
  const idAt = (i: number) => (ids[i] ??= rows.id(entries[i]!));
  const order = entries.map((_, i) => i);
  order.sort((a, b) => {
    for (const { values, largestFirst } of keys) {
      const x = values[a]!;
      const y = values[b]!;
      if (x === y || (Number.isNaN(x) && Number.isNaN(y))) continue;
      // Unknown values (open interest some venues do not publish, persistence without history) go last in either direction.
      if (Number.isNaN(x)) return 1;
      if (Number.isNaN(y)) return -1;
      return largestFirst ? y - x : x - y;
    }
    const [p, q] = [idAt(a), idAt(b)];
    return p < q ? -1 : p > q ? 1 : 0; // stable pages: ties broken by id
  });
  return order.map((i) => entries[i]!);
}

export interface OpportunityPage {
  items: Opportunity[];
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
}

/**
 * Filters, sorts and pages a snapshot. `exchange` matches either leg, `exchanges` both; `symbol` the
 * base asset, whose group alone is read (OpportunitySnapshot.groupInOrder) rather than the whole set.
 */
export function queryOpportunities(snapshot: OpportunitySnapshot, filter: OpportunityFilter): OpportunityPage {
  return snapshot.query(filter);
}
