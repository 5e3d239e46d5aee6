import type { Exchange, MarketInterface } from "ccxt";
import {
  venueIdSchema,
  type MarketSnapshot,
  type VenueExclusions,
  type VenueId,
  type VenueSnapshotResult,
} from "../types";
import { buildSnapshot, classifyMarket, type FundingObservation, type VenueMarket } from "./build-snapshot";
import { loadCcxt } from "./load-ccxt";
import { keptClient } from "./venue-clients";
import { errorMessage, type CcxtModule, type FetchImplementation, type VenueAdapter } from "./venue-adapter";
import { VENUE_ADAPTERS } from "./venue-adapters";
import { withDeadline } from "./with-deadline";

export const DEFAULT_VENUE_TIMEOUT_MS = 10_000;

export interface FetchVenueSnapshotOptions {
  /**
   * Replaces the network: called by ccxt as `fetch(url, {method, headers, body, signal})` and
   * expected to return a WHATWG `Response`. Tests replay recorded payloads through it.
   */
  fetchImplementation?: FetchImplementation;
  /** Deadline for the whole refresh (markets, funding and extras), and for each request. */
  timeoutMs?: number;
  /**
   * ccxt's client-side throttle (default on). Replays turn it off: against recorded payloads it
   * only adds the venue's request spacing (a second per Hyperliquid info call).
   */
  enableRateLimit?: boolean;
  /** Epoch-ms clock; injected by tests. */
  now?: () => number;
}

/**
 * One refresh of one venue: its linear USDT/USDC perpetuals as validated snapshots, or
 * `{status: "stale", error}` when the venue failed, answered garbage or missed the deadline. Never
 * throws and never returns a partial market list: either every eligible market was judged, or none
 * is returned.
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
    const adapter = VENUE_ADAPTERS[venue.data];
    const settings: ClientSettings = {
      fetchImplementation: options.fetchImplementation,
      timeoutMs,
      enableRateLimit: options.enableRateLimit ?? true,
    };
    const work = refresh(adapter as VenueAdapter<Exchange>, settings, fetchedAt);
    return await withDeadline(work, timeoutMs, `${venue.data} refresh`);
  } catch (error) {
    return { status: "stale", exchange: venue.data, fetchedAt, error: errorMessage(error) };
  }
}

interface ClientSettings {
  fetchImplementation: FetchImplementation | undefined;
  timeoutMs: number;
  enableRateLimit: boolean;
}

function clientFor(adapter: VenueAdapter<Exchange>, lib: CcxtModule, settings: ClientSettings): Exchange {
  const config = { timeout: settings.timeoutMs, enableRateLimit: settings.enableRateLimit };
  // A caller-supplied fetch gets a fresh client, so nothing leaks between tests; live refreshes
  // share the venue's kept client (venue-clients.ts) with the quotes' book requests.
  if (settings.fetchImplementation) {
    return adapter.create(lib, { ...config, fetchImplementation: settings.fetchImplementation });
  }
  const client = keptClient(adapter, lib);
  client.timeout = settings.timeoutMs;
  client.enableRateLimit = settings.enableRateLimit;
  return client;
}

async function refresh(
  adapter: VenueAdapter<Exchange>,
  settings: ClientSettings,
  fetchedAt: number,
): Promise<VenueSnapshotResult> {
  const lib = await loadCcxt(adapter.id);
  const exchange = clientFor(adapter, lib, settings);
  // Reloaded every refresh: listings, delistings and status changes are part of the data.
  await exchange.loadMarkets(true);
  const markets = Object.values(exchange.markets ?? {}).filter(
    (market): market is MarketInterface => market !== undefined && market !== null,
  );
  const marketsById = new Map<string, MarketInterface>();
  for (const market of markets) if (market.id) marketsById.set(market.id, market);

  const { observations, warnings } = await adapter.collect(exchange, { marketsById, fetchedAt });
  const { snapshots, excluded } = judgeMarkets(adapter, markets, observations, fetchedAt);
  if (!snapshots.some((snapshot) => snapshot.fundingRate !== null)) {
    throw new Error(
      `no usable funding rate among ${markets.length} markets and ${observations.length} funding rows`,
    );
  }
  return { status: "ok", exchange: adapter.id, fetchedAt, snapshots, excluded, warnings };
}

function judgeMarkets(
  adapter: VenueAdapter<Exchange>,
  markets: readonly MarketInterface[],
  observations: readonly FundingObservation[],
  fetchedAt: number,
): { snapshots: MarketSnapshot[]; excluded: VenueExclusions } {
  const unmatched = new Map(observations.map((observation) => [observation.symbol, observation]));
  const excluded: VenueExclusions = { notLinearPerp: 0, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 };
  const snapshots: MarketSnapshot[] = [];
  for (const market of markets) {
    const observation = unmatched.get(market.symbol);
    unmatched.delete(market.symbol);
    const venueMarket = toVenueMarket(market, adapter.venueBase?.(market) ?? market.base);
    let verdict = classifyMarket(venueMarket);
    if (verdict === "eligible" && adapter.isTradable && !adapter.isTradable(market)) verdict = "inactive";
    if (verdict !== "eligible") {
      excluded[verdict] += 1;
      continue;
    }
    if (!observation) excluded.noFundingRow += 1;
    const snapshot = buildSnapshot(adapter.id, venueMarket, observation, fetchedAt);
    if (snapshot) snapshots.push(snapshot);
    else excluded.invalid += 1;
  }
  excluded.unlisted = unmatched.size;
  snapshots.sort((a, b) => (a.market < b.market ? -1 : a.market > b.market ? 1 : 0));
  return { snapshots, excluded };
}

function toVenueMarket(market: MarketInterface, base: string): VenueMarket {
  return {
    id: market.id ?? "",
    symbol: market.symbol,
    base,
    quote: market.quote,
    settle: market.settle ?? undefined,
    swap: market.swap ?? undefined,
    linear: market.linear ?? undefined,
    expiry: market.expiry ?? undefined,
    active: market.active ?? undefined,
    taker: market.taker ?? undefined,
  };
}
