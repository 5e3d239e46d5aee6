import { z } from "zod";
import { numberParam, pageParams } from "@/lib/query-params";
import { ageSeconds, isStale, legAtAnswer, legObservedMs, nextStaleAt, servedOpportunity, type Freshness } from "../model/leg-freshness";
import { baseAssetParam, exchangeListParam, exchangeParam } from "../model/market-params";
import type { Opportunity, ServedOpportunity } from "../model/types";
import { groupSlices, groupsOf, mergeGroups, spliceGroups } from "./opportunity-groups";
import { replacesPair, type PartialAssets } from "./pair-scope";
import { rankedBefore, spliceItems } from "./splice-opportunities";
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

/**
 * What an item serves the same for every set at one moment (`asOf`, `sample`): its legs' observed
 * times and its JSON. A set spliced from another at that moment shares them, its kept items being
 * the same objects, so a micro-batch leaves the served JSON of the items it kept as it was.
 */
class ItemCaches {
  readonly json = new WeakMap<Opportunity, (JsonTemplate | undefined)[]>();
  readonly observed = new WeakMap<Opportunity, readonly [long: number, short: number]>();
  /** How many JSON texts `json` holds for the items of the latest set sharing it (see OpportunitySnapshot.jsonOf). */
  cachedJson = 0;
  /** `cachedJson` by asset: a batch looks for texts to drop only in the groups that have some. */
  private readonly cachedByAsset = new Map<string, number>();

  /** Keeps `template` as the item's JSON in `state`. */
  keep(item: Opportunity, state: StaleLegs, template: JsonTemplate): void {
    let texts = this.json.get(item);
    if (!texts) this.json.set(item, (texts = []));
    texts[state] = template;
    this.cachedJson += 1;
    this.cachedByAsset.set(item.symbol, (this.cachedByAsset.get(item.symbol) ?? 0) + 1);
  }

  /** Drops the texts of an asset's replaced items, so that the bound counts the texts of the items served. */
  forget(symbol: string, replaced: readonly Opportunity[]): void {
    let held = this.cachedByAsset.get(symbol);
    if (held === undefined) return;
    for (const item of replaced) {
      const texts = this.json.get(item);
      if (!texts) continue;
      for (const text of texts) {
        if (text === undefined) continue;
        this.cachedJson -= 1;
        held -= 1;
      }
      this.json.delete(item);
    }
    if (held > 0) this.cachedByAsset.set(symbol, held);
    else this.cachedByAsset.delete(symbol);
  }
}

/** A micro-batch as a set takes it: every item of `bases` replaced by `replacement`, in set order; `count` items after it. */
interface Batch {
  bases: ReadonlySet<string>;
  replacement: readonly Opportunity[];
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
  groups: Map<string, readonly Opportunity[]>;
  count: number;
  /**
   * A list in set order and the batches spliced since (at most MAX_PENDING_BATCHES), when a set
   * this one was spliced from had its list built: spliced rather than merged (`spliceItems`).
   */
  from: { list: readonly Opportunity[]; batches: readonly Batch[] } | undefined;
  caches: ItemCaches;
  standardIds: boolean;
}

/**
 * An opportunity set as served: items and their JSON, each sort order computed once per set. An
 * item's JSON depends on which of its legs are stale at the moment of serving (lib/market/model/leg-freshness.ts),
 * which changes at most twice in a set's life, so it is kept per item and per state, with the
 * legs' ages (which change every second) left out and put in for each answer.
 *
 * The set is also held by asset (opportunity-groups.ts): a micro-batch makes the next set from this
 * one by replacing its assets' groups (`spliced`), a query for one asset reads its group only, and
 * the whole list (`items`) of a spliced set is built when first read.
 */
export class OpportunitySnapshot {
  private readonly sorted = new Map<Sort, Opportunity[]>();
  private list: readonly Opportunity[] | undefined;
  private groups: Map<string, readonly Opportunity[]> | undefined;
  private from: SplicedSet["from"];
  /** Whether `list` is in `-apr` order by construction (a spliced set), not to be checked. */
  private readonly ranked: boolean;
  private readonly caches: ItemCaches;
  /** Whether every item's id starts with its asset and a dash (`opportunityId`'s); known once grouped. */
  private standardIds: boolean | undefined;
  private ids: Map<string, Opportunity> | undefined;
  /** How many items the set has. */
  readonly count: number;

  /** How many item JSON texts this set holds. */
  get cachedJsonItems(): number {
    return this.caches.cachedJson;
  }

  /** `items` in any order (checked, or sorted, for `-apr` when first asked); or a spliced set (`spliced`). */
  constructor(
    items: readonly Opportunity[] | SplicedSet,
    readonly asOf: string | null,
    readonly sample: boolean,
  ) {
    if (isItemList(items)) {
      this.list = items;
      this.count = items.length;
      this.ranked = false;
      this.caches = new ItemCaches();
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
   * A round's items, in set order as every set's columns are (`rankedBefore`), held with their
   * groups by asset built in slices (lib/time-slices.ts): built at the first batch spliced into
   * it, they held the serving thread for most of a second at 400,000 items. `idsKnownStandard` when
   * every id is known to be its pair's standard one (columns without ids, OpportunityColumns.ids);
   * otherwise each is checked, in slices too: a freshly built id is a joined text, which checking
   * flattens (~170 ms at once for 420,000 items).
   */
  static async rankedInSlices(items: readonly Opportunity[], asOf: string | null, sample: boolean, sliceMs?: number, idsKnownStandard = false): Promise<OpportunitySnapshot> {
    const groups = await runInSlices(groupSlices(items), sliceMs);
    const standard = idsKnownStandard || (await runInSlices(standardIdSlices(items), sliceMs));
    return new OpportunitySnapshot({ groups, count: items.length, from: { list: items, batches: [] }, caches: new ItemCaches(), standardIds: standard }, asOf, sample);
  }

  /**
   * A stored set's items (another process published it): as `rankedInSlices` when they are in set
   * order, as every ranked set is (checked in slices), else as a list sorted when first asked.
   */
  static async storedInSlices(items: readonly Opportunity[], asOf: string | null, sample: boolean, sliceMs?: number, idsKnownStandard = false): Promise<OpportunitySnapshot> {
    const ordered = await runInSlices(aprOrderSlices(items), sliceMs);
    return ordered ? OpportunitySnapshot.rankedInSlices(items, asOf, sample, sliceMs, idsKnownStandard) : new OpportunitySnapshot(items, asOf, sample);
  }

  /** Every item; a spliced set's in set order (`-apr`), built once, when first read. */
  get items(): readonly Opportunity[] {
    if (!this.list) {
      const from = this.from;
      this.list = from ? from.batches.reduce((list, b) => spliceItems(list, b.bases, b.replacement, b.count, b.partial), from.list) : mergeGroups(this.groups!);
      this.from = undefined;
    }
    return this.list;
  }

  /**
   * The set with every item of `bases` replaced by `replacement` (those assets re-ranked, in set
   * order; of an asset in `partial`, its items with a leg on one of its venues there), at this set's moment: its groups copied with those assets' replaced, sharing this set's
   * item caches. The replaced items' cached JSON is dropped.
   */
  spliced(bases: ReadonlySet<string>, replacement: readonly Opportunity[], partial?: PartialAssets): OpportunitySnapshot {
    const groups = this.groupMap();
    let count = this.count + replacement.length;
    for (const base of bases) {
      const group = groups.get(base) ?? [];
      const replaced = partial?.has(base) ? group.filter((item) => replacesPair(bases, partial, base, item.long.exchange, item.short.exchange)) : group;
      count -= replaced.length;
      this.caches.forget(base, replaced);
    }
    const list = this.ranked ? this.list : this.sorted.get("-apr");
    const batch = { bases, replacement, count, partial };
    // Spliced from this set's list if built, else from the list this set's is spliced from, unless too many batches back.
    const pending = this.from && this.from.batches.length < MAX_PENDING_BATCHES ? { list: this.from.list, batches: [...this.from.batches, batch] } : undefined;
    const from = list ? { list, batches: [batch] } : pending;
    return new OpportunitySnapshot(
      {
        groups: spliceGroups(groups, bases, replacement, partial),
        count,
        from,
        caches: this.caches,
        standardIds: this.standardIds! && replacement.every(hasStandardId),
      },
      this.asOf,
      this.sample,
    );
  }

  inOrder(sort: Sort): readonly Opportunity[] {
    if (sort === "-apr" && this.ranked) return this.items;
    let list = this.sorted.get(sort);
    if (!list) {
      // A published set is held in its ranked order, which is `-apr`'s: checked in one pass, not sorted again.
      list = sort === "-apr" && inAprOrder(this.items) ? (this.items as Opportunity[]) : [...this.items].sort(comparator(sort));
      this.sorted.set(sort, list);
    }
    return list;
  }

  /** The items of asset `symbol` in `sort`'s order; none when the set has none. */
  groupInOrder(symbol: string, sort: Sort): readonly Opportunity[] {
    const group = this.groupMap().get(symbol) ?? [];
    return sort === "-apr" ? group : [...group].sort(comparator(sort));
  }

  /** The items of asset `symbol` in set order (`-apr`). */
  groupOf(symbol: string): readonly Opportunity[] {
    return this.groupInOrder(symbol, "-apr");
  }

  /**
   * The item of id `id`, if the set has one: looked up in the group of the asset its id starts
   * with, as standard ids do (`opportunityId`; an asset may contain a dash, so each prefix is
   * tried); in a map of every id, built once, for a set with other ids.
   */
  byId(id: string): Opportunity | undefined {
    const groups = this.groupMap();
    if (this.standardIds) {
      for (let dash = id.indexOf("-"); dash > 0; dash = id.indexOf("-", dash + 1)) {
        const found = groups.get(id.slice(0, dash))?.find((o) => o.id === id);
        if (found) return found;
      }
      return undefined;
    }
    if (!this.ids) {
      this.ids = new Map();
      for (const item of this.items) if (!this.ids.has(item.id)) this.ids.set(item.id, item);
    }
    return this.ids.get(id);
  }

  private groupMap(): Map<string, readonly Opportunity[]> {
    if (!this.groups) {
      const ordered = this.inOrder("-apr");
      this.groups = groupsOf(ordered);
      this.standardIds = ordered.every(hasStandardId);
    }
    return this.groups;
  }

  /** Epoch ms each leg's numbers are from (`legObservedMs`), read once per set. */
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
   * request (the ages put in per answer), for the first MAX_CACHED_JSON texts asked for: the pages
   * clients poll. A set of 20 venues × 600 assets has ~140k items, ~1.5 KB of JSON each, so caching
   * every one a client pages through would hold ~200 MB per set; past the bound an item is
   * serialised per request.
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
    const { json } = this.caches;
    let template = json.get(item)?.[state];
    if (template === undefined) {
      template = this.template(item, state);
      if (this.caches.cachedJson < MAX_CACHED_JSON) this.caches.keep(item, state, template);
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

function isItemList(items: readonly Opportunity[] | SplicedSet): items is readonly Opportunity[] {
  return Array.isArray(items);
}

/** Whether the item is found in its asset's group by its id (OpportunitySnapshot.byId). */
function hasStandardId(item: Opportunity): boolean {
  return item.id.length > item.symbol.length && item.id.startsWith(item.symbol) && item.id[item.symbol.length] === "-";
}

/** Items checked between two pause points of `standardIdSlices`. */
const CHECKED_A_SLICE = 8_192;

/** Whether every item has a standard id (`hasStandardId`), pausing every CHECKED_A_SLICE items. */
function* standardIdSlices(items: readonly Opportunity[]): Sliced<boolean> {
  for (let i = 0; i < items.length; i++) {
    if (i % CHECKED_A_SLICE === CHECKED_A_SLICE - 1) yield;
    if (!hasStandardId(items[i]!)) return false;
  }
  return true;
}

/** Whether `items` are in the ranked set's order (`-apr`): no item ranked before the one preceding it. */
function inAprOrder(items: readonly Opportunity[]): boolean {
  return runWhole(aprOrderSlices(items));
}

/** `inAprOrder` pausing every CHECKED_A_SLICE items. */
function* aprOrderSlices(items: readonly Opportunity[]): Sliced<boolean> {
  for (let i = 1; i < items.length; i++) {
    if (i % CHECKED_A_SLICE === 0) yield;
    if (rankedBefore(items[i]!.apr, items[i]!.id, items[i - 1]!.apr, items[i - 1]!.id)) return false;
  }
  return true;
}

/** One key of an order: the value compared, and whether larger values come first. */
type SortKey = [value: (o: Opportunity) => number | null, largestFirst: boolean];

/**
 * The keys of each sort, compared in turn. `stability` is "paid most often, then least volatile":
 * the steadiest first, so its plain form is the useful one, and `-stability` reverses both keys.
 */
function sortKeys(sort: Sort): SortKey[] {
  const descending = sort.startsWith("-");
  switch (sort.replace(/^-/, "")) {
    case "apr":
      return [[(o) => o.apr, descending]];
    case "net_apr":
      return [[(o) => o.net_apr, descending]];
    case "open_interest":
      return [[(o) => o.open_interest_usd, descending]];
    default:
      return [
        [(o) => o.persistence.paid_share_7d, !descending],
        [(o) => o.persistence.apr_stddev_7d, descending],
      ];
  }
}

function comparator(sort: Sort): (a: Opportunity, b: Opportunity) => number {
  const keys = sortKeys(sort);
  return (a, b) => {
    for (const [value, largestFirst] of keys) {
      const x = value(a);
      const y = value(b);
      if (x === y) continue;
      // Unknown values (open interest some venues do not publish, persistence without history) go last in either direction.
      if (x === null) return 1;
      if (y === null) return -1;
      return largestFirst ? y - x : x - y;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0; // stable pages: ties broken by id
  };
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
  const ordered = filter.symbol === undefined ? snapshot.inOrder(filter.sort) : snapshot.groupInOrder(filter.symbol, filter.sort);
  const filtered =
    filter.exchange === undefined && filter.exchanges === undefined && filter.min_apr === undefined
      ? ordered
      : ordered.filter(
          (o) =>
            (filter.exchange === undefined || o.long.exchange === filter.exchange || o.short.exchange === filter.exchange) &&
            (filter.exchanges === undefined || (filter.exchanges.includes(o.long.exchange) && filter.exchanges.includes(o.short.exchange))) &&
            (filter.min_apr === undefined || o.apr >= filter.min_apr),
        );
  const items = filtered.slice(filter.offset, filter.offset + filter.limit);
  return {
    items,
    total: filtered.length,
    limit: filter.limit,
    offset: filter.offset,
    has_more: filter.offset + items.length < filtered.length,
  };
}
