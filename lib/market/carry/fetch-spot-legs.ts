import { createHttpClient, type HttpClient } from "../venues/connectors/http-client";
import type { FetchImplementation } from "../venues/connectors/fetch-implementation";
import type { VenueId } from "../model/types";
import { BORROW_ENDPOINTS, readBorrowRates, type BorrowEndpoint } from "./read-borrow-rates";
import { readSpotTickers, SPOT_TICKER_VENUES, type SpotTickerRow, type SpotTickerVenue } from "./read-spot-tickers";
import { signBinance, signBybit, signGate, type VenueApiKey } from "./sign-venue-request";
import type { BorrowRate, SpotLeg } from "./spot-leg";
import { SPOT_VENUE_EXCHANGE, spotLegOf } from "./spot-leg-of";

/** One spot venue's answer in a round: its legs, or why it has none this time. */
export type SpotVenueResult =
  | { status: "ok"; venue: SpotTickerVenue; exchange: VenueId; fetchedAt: number; legs: SpotLeg[]; borrowRead: boolean }
  | { status: "stale"; venue: SpotTickerVenue; exchange: VenueId; fetchedAt: number; error: string };

/** The read-only keys of the venues whose borrow endpoints are signed; a venue without one has `borrow: null`. */
export type SpotCredentials = Partial<Record<"binance" | "bybit" | "gate", VenueApiKey>>;

export interface FetchSpotLegsOptions {
  venues?: readonly SpotTickerVenue[];
  /** The whole venue's deadline: tickers and borrow requests together. */
  timeoutMs: number;
  now?: () => number;
  credentials?: SpotCredentials;
  /** Replaces the network (tests, benchmarks, the offline sample replay recordings). */
  fetchImplementation?: FetchImplementation;
}

/*
 * Bybit, Gate and Bitget state a borrow rate per asked coin (Gate ten coins a request). Asking for
 * every spot base each round would be hundreds of requests a minute against a budget the perp
 * connectors share, so only the most traded dollar-quoted bases are asked: the carry candidates.
 */
export const BORROW_ASSETS_PER_ROUND = 20;
const GATE_CURRENCIES_PER_REQUEST = 10;
/** Between two requests to one venue: Bitget allows 20 a second for its margin-loans endpoint. */
const PER_ASSET_SPACING_MS = 60;

interface BorrowContext {
  client: HttpClient;
  assets: string[];
  apiKey: VenueApiKey | undefined;
  nowMs: number;
  observedAt: string;
  signal: AbortSignal;
}

interface SpotVenuePlan {
  baseUrl: string;
  tickers: { path: string; query?: Record<string, string> };
  /** The venue's borrow rates, or null when they cannot be read (no endpoint, or a signed one without a key). */
  borrow: ((context: BorrowContext) => Promise<BorrowRate[]>) | null;
  /** A signed endpoint: read only with the operator's key. */
  signed: boolean;
}

async function read(endpoint: BorrowEndpoint, context: BorrowContext, query: Record<string, string>, headers?: Record<string, string>, asset?: string) {
  const body = await context.client.getJson(BORROW_ENDPOINTS[endpoint].path, query, { signal: context.signal, headers });
  return readBorrowRates(endpoint, body, context.observedAt, asset);
}

/** One answer per asset, one at a time as the client spaces them. */
async function perAsset(context: BorrowContext, one: (asset: string) => Promise<BorrowRate[]>): Promise<BorrowRate[]> {
  const answers = await Promise.all(context.assets.map(one));
  return answers.flat();
}

function keyOf(context: BorrowContext): VenueApiKey {
  if (!context.apiKey) throw new Error("a signed borrow endpoint was asked without a key");
  return context.apiKey;
}

const PLANS: Record<SpotTickerVenue, SpotVenuePlan> = {
  binance: {
    baseUrl: "https://api.binance.com",
    tickers: { path: "/api/v3/ticker/24hr" },
    signed: true,
    // Without `coin`, every coin's cross-margin data in one answer.
    borrow: (context) => {
      const signed = signBinance({}, keyOf(context), context.nowMs);
      return read("binance-cross-margin-data", context, signed.query, signed.headers);
    },
  },
  bybit: {
    baseUrl: "https://api.bybit.com",
    tickers: { path: "/v5/market/tickers", query: { category: "spot" } },
    signed: true,
    borrow: (context) =>
      perAsset(context, (currency) => {
        const signed = signBybit({ currency }, keyOf(context), context.nowMs);
        return read("bybit-interest-rate-history", context, signed.query, signed.headers);
      }),
  },
  okx: {
    baseUrl: "https://www.okx.com",
    tickers: { path: "/api/v5/market/tickers", query: { instType: "SPOT" } },
    signed: false,
    borrow: (context) => read("okx-interest-rate-loan-quota", context, {}),
  },
  gate: {
    baseUrl: "https://api.gateio.ws",
    tickers: { path: "/api/v4/spot/tickers" },
    signed: true,
    borrow: async (context) => {
      const path = `/api/v4${BORROW_ENDPOINTS["gate-uni-estimate-rate"].path}`;
      const batches: string[][] = [];
      for (let from = 0; from < context.assets.length; from += GATE_CURRENCIES_PER_REQUEST) batches.push(context.assets.slice(from, from + GATE_CURRENCIES_PER_REQUEST));
      const answers = await Promise.all(
        batches.map(async (currencies) => {
          const signed = signGate("GET", path, { currencies: currencies.join(",") }, keyOf(context), context.nowMs);
          const body = await context.client.getJson(path, signed.query, { signal: context.signal, headers: signed.headers });
          return readBorrowRates("gate-uni-estimate-rate", body, context.observedAt);
        }),
      );
      return answers.flat();
    },
  },
  bitget: {
    baseUrl: "https://api.bitget.com",
    tickers: { path: "/api/v2/spot/market/tickers" },
    signed: false,
    borrow: (context) => perAsset(context, (coin) => read("bitget-margin-loans", context, { coin }, undefined, coin)),
  },
  // KuCoin's public lending rate does not state its period (tests/fixtures/carry/SOURCES.md): not read.
  kucoin: { baseUrl: "https://api.kucoin.com", tickers: { path: "/api/v1/market/allTickers" }, signed: false, borrow: null },
};

const DOLLAR_QUOTES = new Set(["USDT", "USDC"]);

/** The most traded dollar-quoted bases, as the venue writes them: the coins whose borrow rate is asked. */
export function borrowAssetsOf(rows: readonly SpotTickerRow[], limit = BORROW_ASSETS_PER_ROUND): string[] {
  const volume = new Map<string, number>();
  for (const row of rows) {
    if (!DOLLAR_QUOTES.has(row.venueQuote.toUpperCase())) continue;
    const base = row.venueBase.toUpperCase();
    volume.set(base, (volume.get(base) ?? 0) + row.quoteVolume24h);
  }
  return [...volume]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([base]) => base);
}

async function fetchVenue(venue: SpotTickerVenue, options: FetchSpotLegsOptions, nowMs: number, signal: AbortSignal): Promise<{ legs: SpotLeg[]; borrowRead: boolean }> {
  const plan = PLANS[venue];
  const client = createHttpClient({
    baseUrl: plan.baseUrl,
    timeoutMs: options.timeoutMs,
    spacingMs: plan.borrow && venue !== "okx" && venue !== "binance" ? PER_ASSET_SPACING_MS : 0,
    fetchImplementation: options.fetchImplementation,
  });
  const observedAt = new Date(nowMs).toISOString();
  const rows = readSpotTickers(venue, await client.getJson(plan.tickers.path, plan.tickers.query, { signal }));
  const apiKey = options.credentials?.[venue as keyof SpotCredentials];
  const borrowRead = plan.borrow !== null && (!plan.signed || apiKey !== undefined);
  const rates = borrowRead && plan.borrow ? await plan.borrow({ client, assets: borrowAssetsOf(rows), apiKey, nowMs, observedAt, signal }) : [];
  const byAsset = new Map(rates.map((rate) => [rate.asset, rate]));
  // A delisted market answers a price of 0: it has no price to carry against, and is no reason to drop the venue.
  const legs = rows.filter((row) => row.price > 0).map((row) => spotLegOf(venue, row, { observedAt, borrow: byAsset.get(row.venueBase.toUpperCase()) ?? null }));
  return { legs, borrowRead };
}

/**
 * Every spot venue at once, each under `timeoutMs` for its tickers and borrow rates together. A
 * venue whose requests fail, time out or answer an unexpected shape is stale alone and whole: its
 * legs are all or none, never a list missing what failed. One result per venue, in `venues` order.
 */
export function fetchSpotLegs(options: FetchSpotLegsOptions): Promise<SpotVenueResult[]> {
  const now = options.now ?? Date.now;
  const venues = options.venues ?? SPOT_TICKER_VENUES;
  return Promise.all(
    venues.map(async (venue): Promise<SpotVenueResult> => {
      const fetchedAt = now();
      const exchange = SPOT_VENUE_EXCHANGE[venue];
      const controller = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      // Aborting ends the venue's requests; the race ends the venue even if a fetch ignores the signal.
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(new Error(`no answer within ${options.timeoutMs} ms`));
        }, options.timeoutMs);
      });
      try {
        const { legs, borrowRead } = await Promise.race([fetchVenue(venue, options, fetchedAt, controller.signal), deadline]);
        return { status: "ok", venue, exchange, fetchedAt, legs, borrowRead };
      } catch (error) {
        controller.abort();
        return { status: "stale", venue, exchange, fetchedAt, error: error instanceof Error ? error.message : String(error) };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}
