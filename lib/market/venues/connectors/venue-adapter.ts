import type { Exchange, MarketInterface } from "ccxt";
import { HIP3_VENUE_IDS } from "../../model/hip3-venues";
import { VENUE_IDS, type VenueId } from "../../model/types";
import type { FundingObservation, VenueMarket } from "./build-snapshot";
import type { HttpClient } from "./http-client";

/**
 * Venues read by an {@link HttpVenueAdapter} over plain HTTP: those the installed ccxt has no
 * exchange class for (BitMart, BitMEX, Drift, Variational, edgeX, Ethereal); Derive, whose ccxt
 * class reads funding only from its history (the last settled rate), not the ticker's live
 * `perp_details`; Hibachi, whose ccxt class asks one market a request and fixes an 8-hour interval
 * its hourly history contradicts; and Hyperliquid's HIP-3 dexes, which ccxt's hyperliquid class
 * folds into the main dex's client (hyperliquid-hip3.ts). Every other venue is a ccxt venue
 * ({@link VenueAdapter}).
 */
export const HTTP_VENUE_IDS = ["bitmart", "bitmex", "derive", "drift", "orderly", "variational", "hibachi", "edgex", "ethereal", ...HIP3_VENUE_IDS] as const satisfies readonly VenueId[];
export type HttpVenueId = (typeof HTTP_VENUE_IDS)[number];
export type CcxtVenueId = Exclude<VenueId, HttpVenueId>;
/** The venues with a ccxt class, in VENUE_IDS order. */
export const CCXT_VENUE_IDS: readonly CcxtVenueId[] = VENUE_IDS.filter(
  (venue): venue is CcxtVenueId => !(HTTP_VENUE_IDS as readonly string[]).includes(venue),
);

/** The ccxt exchange classes by venue (load-ccxt.ts loads each venue's alone, not ccxt's whole index). */
export type CcxtModule = Pick<typeof import("ccxt"), CcxtVenueId>;

export type { FetchImplementation, FetchInit } from "./fetch-implementation";

export interface VenueCollection {
  observations: FundingObservation[];
  warnings: string[];
}

export interface CollectContext<M = MarketInterface> {
  /** Every market loaded this refresh (by ccxt, or by an HTTP adapter's `loadMarkets`), by the venue's market id. */
  marketsById: ReadonlyMap<string, M>;
  /** Epoch ms when the refresh started; the observation time for venues that send none. */
  fetchedAt: number;
}

/**
 * What one venue needs beyond ccxt's unified calls. `collect` must throw when the funding payload
 * itself is unusable (the venue then goes stale) and degrade to warnings for optional extras.
 */
export interface VenueAdapter<E extends Exchange = Exchange> {
  /** Absent or `"ccxt"`: the kind marker that tells this adapter from an {@link HttpVenueAdapter}. */
  readonly kind?: "ccxt";
  readonly id: CcxtVenueId;
  /** Builds the ccxt client with market loading narrowed to linear swaps. */
  create(lib: CcxtModule, config: Record<string, unknown>): E;
  /** Venue flags ccxt does not fold into `market.active`. */
  isTradable?(market: MarketInterface): boolean;
  /** The venue's own base code where ccxt's differs (ccxt upper-cases Hyperliquid's `kPEPE`). */
  venueBase?(market: MarketInterface): string;
  /**
   * Dollar codes besides USDT and USDC the venue's comparable perpetuals are quoted and settled in
   * (build-snapshot.ts `classifyMarket`): Kraken's `USD`.
   */
  readonly alsoDollars?: readonly string[];
  collect(exchange: E, context: CollectContext): Promise<VenueCollection>;
}

/**
 * A market as an HTTP adapter reads it from the venue's listing: the fields the snapshot is judged
 * on (the ccxt unified symbol, e.g. `BTC/USDT:USDT`, and the unified base, quote and settle codes),
 * and the venue's raw row.
 */
export interface HttpMarket extends VenueMarket {
  info: Record<string, unknown>;
}

/**
 * A venue read over plain HTTP, for venues the installed ccxt lacks. It gets the same deadline,
 * staleness, exclusions and validation as a ccxt venue (fetch-venue-snapshot.ts): `loadMarkets`
 * lists every market the venue has (the refresh judges which count), `collect` reads the funding
 * payload and follows the same rules as {@link VenueAdapter.collect}.
 */
export interface HttpVenueAdapter {
  readonly kind: "http";
  readonly id: HttpVenueId;
  /** The venue's public REST root; request paths are relative to it. */
  readonly baseUrl: string;
  /**
   * The venue's documented public request budget, as the least time between the starts of two
   * requests (ms): 1000 / the requests per second it allows.
   */
  readonly requestSpacingMs: number;
  /**
   * The venue's market list is a request of its own, not its funding payload: it is kept between
   * refreshes as a ccxt venue's is (MARKETS_TTL_MS, and reloaded at once after funding rows named a
   * market it lacks; fetch-venue-snapshot.ts), and `collect` reads funding from the requests it
   * makes every refresh. Unset, the list is loaded every refresh.
   */
  readonly keepsMarketList?: boolean;
  loadMarkets(http: HttpClient): Promise<HttpMarket[]>;
  collect(http: HttpClient, context: CollectContext<HttpMarket>): Promise<VenueCollection>;
}

/** Runs a call whose failure should cost a field, not the venue; records why it failed. */
export async function optional<T>(warnings: string[], label: string, call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    warnings.push(`${label}: ${errorMessage(error)}`);
    return undefined;
  }
}

/** A venue's rows by one field (indexRows). */
export type IndexedRows = ReadonlyMap<string, Record<string, unknown>>;

/**
 * An extra list (tickers, open interest, bounds) fetched beside the funding payload and indexed by
 * one field; its failure costs the fields it adds, not the venue (see {@link optional}).
 */
export function optionalIndex(
  warnings: string[],
  label: string,
  key: string,
  call: () => Promise<unknown>,
): Promise<Map<string, Record<string, unknown>> | undefined> {
  return optional(warnings, label, async () => indexRows(rowsOf(await call()), key));
}

export function errorMessage(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

/** A plain-object view of an untyped payload value, or undefined. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Rows of a list payload, either bare (`[...]`) or under `data` (`{code, data: [...]}`). */
export function rowsOf(payload: unknown, key = "data"): Record<string, unknown>[] {
  const list = Array.isArray(payload) ? payload : asRecord(payload)?.[key];
  if (!Array.isArray(list)) throw new Error(`expected a list${Array.isArray(payload) ? "" : ` under "${key}"`}`);
  // A loop, not flatMap: flatMap made an array for every row (50,600 rows in 46 lists, in process:
  // 13.8-16.4 ms against 0.7 ms).
  const rows: Record<string, unknown>[] = [];
  for (const row of list as unknown[]) {
    const record = asRecord(row);
    if (record) rows.push(record);
  }
  return rows;
}

/** Indexes rows by one string field, e.g. Binance tickers by `symbol`. */
export function indexRows(rows: readonly Record<string, unknown>[], key: string): Map<string, Record<string, unknown>> {
  const index = new Map<string, Record<string, unknown>>();
  for (const row of rows) {
    const id = row[key];
    if (typeof id === "string") index.set(id, row);
  }
  return index;
}
