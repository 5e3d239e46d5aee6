import type { Exchange, MarketInterface } from "ccxt";
import { venueIdSchema, type VenueId, type VenueSnapshotResult } from "../../model/types";
import type { VenueMarket } from "./build-snapshot";
import { judgeMarkets } from "./judge-markets";
import { createHttpClient, type ConfigurableHttpClient } from "./http-client";
import { loadCcxt } from "./load-ccxt";
import { keptClient } from "./venue-clients";
import { logger } from "@/lib/observability/logger";
import { venueBudgets, type VenueBudgets } from "../venue-budget";
import { budgetedFetch } from "./fetch-implementation";
import {
  errorMessage,
  type CcxtModule,
  type CcxtVenueId,
  type FetchImplementation,
  type HttpMarket,
  type HttpVenueAdapter,
  type HttpVenueId,
  type VenueAdapter,
  type VenueCollection,
} from "./venue-adapter";
import { VENUE_ADAPTERS } from "./venue-adapters";
import { withDeadline } from "./with-deadline";

export const DEFAULT_VENUE_TIMEOUT_MS = 10_000;

/**
 * How long a ccxt venue's loaded market list is reused. Parsing a venue's whole market list on
 * every one-minute round cost more CPU than the rest of the round at 20 venues, and a request of
 * each venue's budget; listings change over days, not minutes. A refresh whose funding rows name a
 * market the list lacks (a new listing) reloads the list on the next refresh whatever its age.
 *
 * A list this old is reloaded apart from the refreshes (`reloadDueMarketLists`, which a round calls
 * once it has published), not inside one: every list loads in a worker's first round, so every list
 * fell due in the same round, one in ten, and reloading every ccxt venue's list inside it made that
 * round seconds longer. A refresh reloads it only once it is twice as old (the reloads apart stopped).
 */
export const MARKETS_TTL_MS = 10 * 60_000;

export interface FetchVenueSnapshotOptions {
  /**
   * Replaces the network: called (by ccxt, or by the HTTP client of an HTTP venue) as
   * `fetch(url, {method, headers, body, signal})` and expected to return a WHATWG `Response`.
   * Tests replay recorded payloads through it.
   */
  fetchImplementation?: FetchImplementation;
  /** Deadline for the whole refresh (markets, funding and extras), and for each request. */
  timeoutMs?: number;
  /**
   * The client-side request throttle (default on): ccxt's, or an HTTP venue's request spacing.
   * Replays turn it off: against recorded payloads it only adds the venue's request spacing (a
   * second per Hyperliquid info call).
   */
  enableRateLimit?: boolean;
  /** Epoch-ms clock; injected by tests. */
  now?: () => number;
  /**
   * Keep this venue's client, and so its loaded markets and throttle, from one call to the next
   * with this `fetchImplementation`, as live refreshes keep theirs. Off by default, so nothing
   * leaks between tests; the market benchmark replays steady-state rounds with it.
   */
  keepClient?: boolean;
  /**
   * Budgets a replayed refresh draws live tokens from, request by request (tests, the benchmark).
   * Live clients always draw from the process's (venue-budget.ts); a replay without these draws none.
   */
  budgets?: Pick<VenueBudgets, "take">;
}

/**
 * One refresh of one venue: its linear USDT/USDC perpetuals as validated snapshots, or
 * `{status: "stale", error}` when the venue failed, answered garbage or missed the deadline. Never
 * throws and never returns a partial market list: either every eligible market was judged, or none
 * is returned. ccxt venues and plain-HTTP venues (venue-adapter.ts) differ only in how markets and
 * funding rows are loaded; everything after that is shared.
 */
export async function fetchVenueSnapshot(
  exchangeId: VenueId,
  options: FetchVenueSnapshotOptions = {},
): Promise<VenueSnapshotResult> {
  const now = options.now ?? Date.now;
  const fetchedAt = now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_VENUE_TIMEOUT_MS;
  const venue = venueIdSchema.safeParse(exchangeId);
  if (!venue.success) {
    return { status: "stale", exchange: exchangeId, fetchedAt, error: `unsupported venue "${String(exchangeId)}"` };
  }
  try {
    // Each ccxt adapter is typed by its own exchange class; here any exchange will do.
    const adapter = VENUE_ADAPTERS[venue.data] as VenueAdapter<Exchange> | HttpVenueAdapter;
    const { budgets } = options;
    const settings: ClientSettings = {
      fetchImplementation:
        options.fetchImplementation && budgets
          ? budgetedFetch(options.fetchImplementation, (signal) => budgets.take(venue.data, "live", signal))
          : options.fetchImplementation,
      keepClient: options.keepClient ?? false,
      timeoutMs,
      enableRateLimit: options.enableRateLimit ?? true,
    };
    const work = refresh(adapter, settings, fetchedAt);
    return await withDeadline(work, timeoutMs, `${venue.data} refresh`);
  } catch (error) {
    return { status: "stale", exchange: venue.data, fetchedAt, error: errorMessage(error) };
  }
}

// Live clients are kept per venue so keep-alive connections, the request throttle (ccxt's, or an
// HTTP venue's spacing) and loaded markets survive between refreshes: a ccxt venue's is shared with
// the quotes' book requests (venue-clients.ts). A caller-supplied fetch gets a fresh client so
// nothing leaks between tests, unless the caller asks to keep it.
const liveHttpClients = new Map<HttpVenueId, ConfigurableHttpClient>();
const replayClients = new WeakMap<FetchImplementation, Map<CcxtVenueId, Exchange>>();
const replayHttpClients = new WeakMap<FetchImplementation, Map<HttpVenueId, ConfigurableHttpClient>>();

/**
 * When a client's market list was loaded, the markets a refresh since found it lacks, and those it
 * was last reloaded for lacking: a venue whose funding payload keeps naming markets its list never
 * has (Lighter, Backpack) would otherwise have its list reloaded on every refresh.
 */
interface MarketList {
  loadedAt: number;
  /** Empty unless a refresh met an unlisted market not in `reloadedFor`: then the list is due. */
  lacking: ReadonlySet<string>;
  reloadedFor: ReadonlySet<string>;
}
/** By the client that holds the list: a ccxt Exchange, or the HttpClient of an HTTP venue that keeps one (`keepsMarketList`). */
const marketLists = new WeakMap<object, MarketList>();
/** Kept clients whose list a refresh found MARKETS_TTL_MS old, each with its venue and how to reload it: what `reloadDueMarketLists` reloads. */
const listsDue = new Map<object, { venue: VenueId; load: () => Promise<unknown> }>();
/** The lists of the HTTP venues that keep theirs, by their client. */
const httpMarketLists = new WeakMap<object, HttpMarket[]>();

interface ClientSettings {
  fetchImplementation: FetchImplementation | undefined;
  keepClient: boolean;
  timeoutMs: number;
  enableRateLimit: boolean;
}

function clientFor(adapter: VenueAdapter<Exchange>, lib: CcxtModule, settings: ClientSettings): Exchange {
  const config = { timeout: settings.timeoutMs, enableRateLimit: settings.enableRateLimit };
  const { fetchImplementation } = settings;
  if (!fetchImplementation) return configured(keptClient(adapter, lib), settings);
  if (!settings.keepClient) return adapter.create(lib, { ...config, fetchImplementation });
  const clients = replayClients.get(fetchImplementation) ?? new Map<CcxtVenueId, Exchange>();
  replayClients.set(fetchImplementation, clients);
  let client = clients.get(adapter.id);
  if (!client) {
    client = adapter.create(lib, { ...config, fetchImplementation });
    clients.set(adapter.id, client);
  }
  return configured(client, settings);
}

function configured(client: Exchange, settings: ClientSettings): Exchange {
  client.timeout = settings.timeoutMs;
  client.enableRateLimit = settings.enableRateLimit;
  return client;
}

function httpClientFor(adapter: HttpVenueAdapter, settings: ClientSettings): ConfigurableHttpClient {
  const spacingMs = settings.enableRateLimit ? adapter.requestSpacingMs : 0;
  const config = { baseUrl: adapter.baseUrl, timeoutMs: settings.timeoutMs, spacingMs };
  const { fetchImplementation } = settings;
  if (fetchImplementation && !settings.keepClient) return createHttpClient({ ...config, fetchImplementation });
  const clients = fetchImplementation ? (replayHttpClients.get(fetchImplementation) ?? new Map<HttpVenueId, ConfigurableHttpClient>()) : liveHttpClients;
  if (fetchImplementation) replayHttpClients.set(fetchImplementation, clients);
  let client = clients.get(adapter.id);
  if (!client) {
    const venue = adapter.id;
    client = fetchImplementation
      ? createHttpClient({ ...config, fetchImplementation })
      : createHttpClient({ ...config, beforeRequest: (signal) => venueBudgets().take(venue, "live", signal) });
    clients.set(adapter.id, client);
  }
  client.timeoutMs = settings.timeoutMs;
  client.spacingMs = spacingMs;
  return client;
}

/** A venue's markets (as judged, in VenueMarket form) and what its adapter collected about them. */
interface LoadedVenue {
  markets: VenueMarket[];
  collection: VenueCollection;
  /** Told the markets that funding rows named and the list lacks. */
  onJudged?: (unlisted: readonly string[]) => void;
}

/**
 * When a client's market list is loaded (again): `now`, before this refresh (it has none, it lacks
 * a market a refresh met, or it is twice MARKETS_TTL_MS old); `apart`, after the round
 * (`reloadDueMarketLists`), this refresh reading the list it has; or not yet.
 */
export function marketsDue(list: Pick<MarketList, "loadedAt" | "lacking"> | undefined, now: number): "now" | "apart" | undefined {
  if (list === undefined || list.lacking.size > 0 || now - list.loadedAt >= 2 * MARKETS_TTL_MS) return "now";
  return now - list.loadedAt >= MARKETS_TTL_MS ? "apart" : undefined;
}

/**
 * Reloads, one venue at a time, every kept client's market list a refresh on this thread found
 * MARKETS_TTL_MS old; how many it reloaded. Called once a round has published, so the reloads take
 * the idle time between rounds rather than a round's. A list that fails to load stays as it was
 * and is tried again when a refresh next finds it due (and inside a refresh once twice as old).
 */
export async function reloadDueMarketLists(now: () => number = Date.now): Promise<number> {
  let reloaded = 0;
  for (const [client, { venue, load }] of [...listsDue]) {
    listsDue.delete(client);
    try {
      await load();
    } catch (error) {
      logger("ingest").warn({ err: error, exchange: venue }, "reloading the market list failed; it stays as it was");
      continue;
    }
    const list = marketLists.get(client);
    marketLists.set(client, { loadedAt: now(), lacking: list?.lacking ?? new Set(), reloadedFor: list?.reloadedFor ?? new Set() });
    reloaded += 1;
  }
  return reloaded;
}

async function refresh(
  adapter: VenueAdapter<Exchange> | HttpVenueAdapter,
  settings: ClientSettings,
  fetchedAt: number,
): Promise<VenueSnapshotResult> {
  const { markets, collection, onJudged } =
    adapter.kind === "http" ? await loadHttpVenue(adapter, settings, fetchedAt) : await loadCcxtVenue(adapter, settings, fetchedAt);
  const { observations, warnings } = collection;
  const alsoDollars = adapter.kind === "http" ? [] : (adapter.alsoDollars ?? []);
  const { snapshots, excluded, unlisted } = judgeMarkets(adapter.id, markets, observations, fetchedAt, alsoDollars);
  onJudged?.(unlisted);
  if (!snapshots.some((snapshot) => snapshot.fundingRate !== null)) {
    throw new Error(
      `no usable funding rate among ${markets.length} markets and ${observations.length} funding rows`,
    );
  }
  return { status: "ok", exchange: adapter.id, fetchedAt, snapshots, excluded, warnings };
}

async function loadCcxtVenue(adapter: VenueAdapter<Exchange>, settings: ClientSettings, fetchedAt: number): Promise<LoadedVenue> {
  const lib = await loadCcxt(adapter.id);
  const exchange = clientFor(adapter, lib, settings);
  // Listings, delistings and status changes are part of the data, so the list is reloaded every
  // MARKETS_TTL_MS and at once after a refresh met a market it lacks. Funding is never read from
  // it: where the list is also the venue's funding payload (Gate, dYdX, Extended, KuCoin,
  // Hyperliquid, Lighter's statistics), the adapter requests that payload raw on every refresh and
  // joins its rows to the list by id.
  const onJudged = await keptList(exchange, adapter.id, () => exchange.loadMarkets(true), fetchedAt);
  const { marketsById, venueMarkets } = listedMarkets(adapter, exchange.markets ?? {});
  const collection = await adapter.collect(exchange, { marketsById, fetchedAt });
  return { markets: venueMarkets, collection, onJudged };
}

/**
 * The market list `client` holds, loaded by `load` inside this refresh when due now, or marked to
 * be reloaded after the round once MARKETS_TTL_MS old (marketsDue); answers what the refresh tells
 * once judged, the markets the funding rows named and the list lacks: the list is then reloaded on
 * the next refresh, once. If the reloaded list lacks them too, they wait for the next MARKETS_TTL_MS
 * reload like every other change.
 */
async function keptList(client: object, venue: VenueId, load: () => Promise<unknown>, fetchedAt: number): Promise<(unlisted: readonly string[]) => void> {
  const list = marketLists.get(client);
  const due = marketsDue(list, fetchedAt);
  if (due === "now") {
    listsDue.delete(client);
    await load();
    const reloadedFor = list && list.lacking.size > 0 ? list.lacking : (list?.reloadedFor ?? new Set<string>());
    marketLists.set(client, { loadedAt: fetchedAt, lacking: new Set(), reloadedFor });
  } else if (due === "apart") {
    // Only a kept client gets here: one made for this refresh loaded its list above.
    listsDue.set(client, { venue, load });
  }
  return (unlisted) => {
    const loaded = marketLists.get(client);
    if (loaded && unlisted.some((market) => !loaded.reloadedFor.has(market))) loaded.lacking = new Set(unlisted);
  };
}

/** A loaded market list as a refresh reads it: by id, and each market in VenueMarket form. */
interface ListedMarkets {
  marketsById: ReadonlyMap<string, MarketInterface>;
  venueMarkets: VenueMarket[];
}

/** Made once per loaded list (ccxt replaces the `markets` object when it reloads), not once per refresh. */
const listed = new WeakMap<object, ListedMarkets>();

function listedMarkets(adapter: VenueAdapter<Exchange>, loaded: Record<string, MarketInterface | undefined>): ListedMarkets {
  let found = listed.get(loaded);
  if (!found) {
    const markets = Object.values(loaded).filter((market): market is MarketInterface => market !== undefined && market !== null);
    const marketsById = new Map<string, MarketInterface>();
    for (const market of markets) if (market.id) marketsById.set(market.id, market);
    found = { marketsById, venueMarkets: markets.map((market) => toVenueMarket(adapter, market)) };
    listed.set(loaded, found);
  }
  return found;
}

async function loadHttpVenue(adapter: HttpVenueAdapter, settings: ClientSettings, fetchedAt: number): Promise<LoadedVenue> {
  const http = httpClientFor(adapter, settings);
  if (!adapter.keepsMarketList) {
    // Reloaded every refresh: this venue's market list is also its funding payload.
    const markets = await adapter.loadMarkets(http);
    return { markets, collection: await adapter.collect(http, { marketsById: httpMarketsById(markets), fetchedAt }) };
  }
  // Kept as a ccxt venue's is: funding comes from the requests `collect` makes every refresh.
  const onJudged = await keptList(http, adapter.id, async () => httpMarketLists.set(http, await adapter.loadMarkets(http)), fetchedAt);
  const markets = httpMarketLists.get(http)!;
  return { markets, collection: await adapter.collect(http, { marketsById: httpMarketsById(markets), fetchedAt }), onJudged };
}

/** A list's markets by id, made once per loaded list. */
const byId = new WeakMap<readonly HttpMarket[], ReadonlyMap<string, HttpMarket>>();

function httpMarketsById(markets: readonly HttpMarket[]): ReadonlyMap<string, HttpMarket> {
  let found = byId.get(markets);
  if (!found) byId.set(markets, (found = new Map(markets.map((market) => [market.id, market]))));
  return found;
}

/**
 * A ccxt market as the snapshot judges it: the venue's own base where ccxt's differs, and a market
 * the adapter's `isTradable` refuses counted as inactive, as one ccxt marks inactive is.
 */
function toVenueMarket(adapter: VenueAdapter<Exchange>, market: MarketInterface): VenueMarket {
  const tradable = adapter.isTradable?.(market) ?? true;
  return {
    id: market.id ?? "",
    symbol: market.symbol,
    base: adapter.venueBase?.(market) ?? market.base,
    quote: market.quote,
    settle: market.settle ?? undefined,
    swap: market.swap ?? undefined,
    linear: market.linear ?? undefined,
    expiry: market.expiry ?? undefined,
    active: tradable ? (market.active ?? undefined) : false,
    taker: market.taker ?? undefined,
  };
}
