import { HIP3_VENUE_IDS, isHip3Venue, type Hip3VenueId } from "../model/hip3-venues";
import { VENUE_IDS, type VenueId } from "../model/types";

/**
 * A venue's published limit on public REST requests from one IP, as one process's shared budget
 * (venue-budget.ts) spends it. Where the venue counts a weight per request, the figure is requests
 * of the weight this service's requests mostly have; ccxt's own throttle, still on for its clients,
 * keeps counting each endpoint's weight.
 */
export interface VenueRequestLimit {
  /** Requests a second on average. */
  requestsPerSecond: number;
  /** Requests at once after a pause: a round asks a venue a handful together, a quote two books. */
  burst: number;
  /** Where the figure comes from: the venue's documentation, or ccxt's `rateLimit` where the venue publishes none. */
  source: string;
}

/**
 * How many of a bucket's tokens only live rounds and quotes may take: the backfill takes one only
 * while the bucket holds more than this, so a round finds this many requests ready however long a
 * backfill has been running.
 */
export function liveReserve(limit: Pick<VenueRequestLimit, "burst">): number {
  return Math.max(1, Math.floor(limit.burst / 2));
}

const limit = (requestsPerSecond: number, source: string, burst = Math.max(4, Math.min(20, Math.round(requestsPerSecond * 2)))): VenueRequestLimit => ({
  requestsPerSecond,
  burst,
  source,
});

const ccxtRateLimit = (id: string, ms: number) => limit(1_000 / ms, `ccxt ${id} rateLimit ${ms} ms (the venue publishes no per-IP figure)`);

const HYPERLIQUID_LIMIT = limit(1_200 / 20 / 60, "https://hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/rate-limits-and-user-limits (weight 1200 a minute; info requests weigh 20)");

/**
 * The venue whose budget a venue's requests spend: its own, but for the HIP-3 dexes, which are
 * served by Hyperliquid's one API under its one per-IP limit and so spend the main dex's bucket
 * (venue-budget.ts draws them from it).
 */
export function budgetOwner(venue: VenueId): VenueId {
  return isHip3Venue(venue) ? "hyperliquid" : venue;
}

/** How many venues spend `owner`'s budget: 8 for Hyperliquid (the main dex and seven HIP-3 dexes), else 1. */
function venuesSharing(owner: VenueId): number {
  return VENUE_IDS.filter((venue) => budgetOwner(venue) === owner).length;
}

/** Every venue's budget: one table, read by the live clients, the quotes' books and the backfill alike. */
export const VENUE_REQUEST_LIMITS: Readonly<Record<VenueId, VenueRequestLimit>> = {
  binance: limit(2_400 / 60, "https://developers.binance.com/docs/derivatives/usds-margined-futures/general-info (REQUEST_WEIGHT 2400 a minute per IP)"),
  bybit: limit(600 / 5, "https://bybit-exchange.github.io/docs/v5/rate-limit (600 requests per 5 s per IP)"),
  okx: limit(20 / 2, "https://www.okx.com/docs-v5/en/#overview-rate-limits (public data: 20 requests per 2 s per IP)"),
  bitget: limit(20, "https://www.bitget.com/api-doc/common/intro (market data: 20 requests a second per IP)"),
  gate: limit(200 / 10, "https://www.gate.io/docs/developers/apiv4/#frequency-limit-rule (public: 200 requests per 10 s per endpoint)"),
  hyperliquid: HYPERLIQUID_LIMIT,
  dydx: ccxtRateLimit("dydx", 100),
  aster: limit(2_400 / 60, "https://github.com/asterdex/api-docs (REQUEST_WEIGHT 2400 a minute per IP)"),
  lighter: ccxtRateLimit("lighter", 1_000),
  paradex: ccxtRateLimit("paradex", 50),
  extended: limit(1_000 / 60, "https://api.docs.extended.exchange/#rate-limits (1000 requests a minute per IP)"),
  grvt: ccxtRateLimit("grvt", 10),
  backpack: ccxtRateLimit("backpack", 50),
  mexc: ccxtRateLimit("mexc", 50),
  kucoinfutures: limit(2_000 / 5 / 30, "https://www.kucoin.com/docs/basic-info/request-rate-limit/rest-api (public pool 2000 per 30 s; market requests weigh 2 to 5)"),
  bingx: ccxtRateLimit("bingx", 100),
  htx: ccxtRateLimit("htx", 100),
  bitmart: limit(12 / 2, "https://developer-pro.bitmart.com/en/futuresv2/#rate-limit (12 requests per 2 s per IP; the adapter's spacing)"),
  deribit: ccxtRateLimit("deribit", 50),
  bitmex: limit(30 / 60, "https://www.bitmex.com/app/restAPI#Limits (30 requests a minute unauthenticated; the adapter's 2 s spacing)", 4),
  coinex: limit(10, "https://docs.coinex.com/api/v2/rate-limit (limits per endpoint group; 10 a second, well under the market group's)"),
  phemex: ccxtRateLimit("phemex", 120.5),
  woo: ccxtRateLimit("woo", 100),
  krakenfutures: ccxtRateLimit("krakenfutures", 600),
  derive: ccxtRateLimit("derive", 50),
  // ccxt's drift class (newer than the installed ccxt) throttles at 250 ms; Drift's data API docs
  // state only "a certain number of requests per minute", varying with load.
  drift: limit(1_000 / 250, "ccxt drift.ts rateLimit 250 ms (Drift's data API publishes no per-IP figure)"),
  pacifica: limit(100 / 60, "https://docs.pacifica.fi/api-documentation/api/rate-limits (100 credits a minute per IP without an API config key; 1 credit a request)"),
  orderly: limit(10, "https://orderly.network/docs/build-on-omnichain/restful-api/public/get-predicted-funding-rates-for-all-markets (10 requests a second per IP, the all-market public endpoints)"),
  // ccxt counts 75 units a second (its comment: "75 requests per second") and 3 per market-data request.
  btse: limit(75 / 3, "ccxt btse rateLimit 13.3 ms and cost 3 per public market request (BTSE's published per-IP figure not found)"),
  weex: limit(10, "ccxt weex rateLimit comment: 10 requests a second for public endpoints (WEEX's docs weigh each endpoint per IP; no total found)"),
  // edgeX states only "Rate Limits Apply"; a public client ran 4.4 a second without refusal.
  edgex: limit(1_000 / 300, "edgeX publishes no per-IP figure (its API docs: \"Rate Limits Apply\"); 300 ms between requests"),
  hibachi: ccxtRateLimit("hibachi", 100),
  ethereal: limit(5, "https://docs.ethereal.trade/developer-guides/trading-api/system-limits (20,000 HTTP points a minute per IP; a public GET's point cost not read, so 5 requests a second)"),
  variational: limit(10 / 10, "https://docs.variational.io/technical-documentation/api (10 requests per 10 s per IP; 1000 a minute across all callers)"),
  cryptocom: limit(100, "https://exchange-docs.crypto.com/exchange/v1/rest-ws/index.html#rate-limits (public/get-valuations and public/get-tickers: 100 requests a second each per IP; one bucket for both here)"),
  whitebit: limit(2_000 / 10, "https://docs.whitebit.com/api-reference/market-data/available-futures-markets-list (2000 requests per 10 s; the market list is another public v4 endpoint)"),
  hitbtc: limit(30, "ccxt hitbtc rateLimit 3.333 ms at cost 10 a public request, citing https://api.hitbtc.com/#rate-limiting (not read); the copy of these docs Gleec serves for the same API v3 states /public/* 30 a second, burst 50, per IP"),
  toobit: ccxtRateLimit("toobit", 20),
  // Not ccxt's rateLimit: its 20 ms (50 a second) is five times its own comment's figure, the docs' one.
  apex: limit(600 / 60, "https://api-docs.omni.apex.exchange (Rate Limits: 600 requests per 60 s per IP)"),
  bitfinex: limit(90 / 60, "https://docs.bitfinex.com/reference/rest-public-derivatives-status (90 requests a minute; conf, the market list, and tickers have the same, per ccxt's per-endpoint costs)"),
  // Hyperliquid's own figure, one bucket for all: budgetOwner sends these venues' requests to the main dex's.
  ...(Object.fromEntries(HIP3_VENUE_IDS.map((venue) => [venue, HYPERLIQUID_LIMIT])) as Record<Hip3VenueId, VenueRequestLimit>),
};

/**
 * What one refresh of a venue (its connector's requests, the market list reused for ten minutes)
 * costs in requests: `fixed`, plus `perMarkets` requests for every that many markets where the
 * venue answers only a market or a batch at a time (GRVT one ticker per perpetual, HTX the current
 * funding of ten contracts at once).
 */
export interface VenueRefreshCost {
  fixed: number;
  perMarkets?: number;
  /** Asked its markets in turns, at most `marketsPerRefresh` a refresh (ticker-per-market.ts). */
  inTurns?: true;
}

/** Counted from each connector's requests per refresh (lib/market/venues/connectors/<venue>.ts). */
export const VENUE_REFRESH_COSTS: Readonly<Record<VenueId, VenueRefreshCost>> = {
  binance: { fixed: 3 },
  bybit: { fixed: 1 },
  okx: { fixed: 4 },
  bitget: { fixed: 4 },
  gate: { fixed: 2 },
  hyperliquid: { fixed: 1 },
  dydx: { fixed: 1 },
  aster: { fixed: 3 },
  lighter: { fixed: 1 },
  paradex: { fixed: 1 },
  extended: { fixed: 1 },
  grvt: { fixed: 0, perMarkets: 1, inTurns: true },
  backpack: { fixed: 3 },
  mexc: { fixed: 2 },
  kucoinfutures: { fixed: 2 },
  bingx: { fixed: 2 },
  htx: { fixed: 2, perMarkets: 10 },
  bitmart: { fixed: 1 },
  deribit: { fixed: 2 },
  bitmex: { fixed: 1 },
  coinex: { fixed: 2 },
  phemex: { fixed: 1 },
  woo: { fixed: 2 },
  krakenfutures: { fixed: 1 },
  // One `get_ticker` per perpetual, in turns; the instrument list is kept between refreshes.
  derive: { fixed: 0, perMarkets: 1, inTurns: true },
  drift: { fixed: 1 },
  pacifica: { fixed: 2 },
  // The market list (intervals, bounds), the funding rates and the futures tickers.
  orderly: { fixed: 3 },
  btse: { fixed: 1 },
  weex: { fixed: 2 },
  variational: { fixed: 1 },
  hibachi: { fixed: 1 },
  // The metadata, then one getLatestFundingRate per 200 contracts.
  edgex: { fixed: 1, perMarkets: 200 },
  // The product list, then projected rates and prices per 50 products.
  ethereal: { fixed: 1, perMarkets: 25 },
  // The status rows and the perpetuals' tickers.
  bitfinex: { fixed: 2 },
  // The tickers, then one `funding_rate` valuation per perpetual, in turns.
  cryptocom: { fixed: 1, perMarkets: 1, inTurns: true },
  whitebit: { fixed: 1 },
  // futures/info, the last settlement of every contract, the perpetuals' tickers.
  hitbtc: { fixed: 3 },
  // fundingRate, markPrice and the contract tickers, each for every contract.
  toobit: { fixed: 3 },
  // all-ticker-info, every contract's ticker with its funding fields.
  apex: { fixed: 1 },
  // perpDexs (the dex must still be listed), then the dex's metaAndAssetCtxs.
  ...(Object.fromEntries(HIP3_VENUE_IDS.map((venue) => [venue, { fixed: 2 }])) as Record<Hip3VenueId, VenueRefreshCost>),
};

/**
 * The most markets a venue asked in turns (`inTurns`: GRVT, Derive, Crypto.com) is asked in one
 * refresh: what its rate allows in a second, the time a round is to take; the others are served
 * from their last answer until their turn (ticker-per-market.ts).
 */
export function marketsPerRefresh(venue: VenueId): number {
  return Math.max(1, Math.floor(VENUE_REQUEST_LIMITS[budgetOwner(venue)].requestsPerSecond));
}

/** Requests one refresh of `venue` costs with `markets` markets. */
export function refreshRequests(venue: VenueId, markets: number): number {
  const cost = VENUE_REFRESH_COSTS[venue];
  if (!cost.perMarkets) return cost.fixed;
  const asked = cost.inTurns ? Math.min(markets, marketsPerRefresh(venue)) : markets;
  return cost.fixed + Math.ceil(Math.max(0, asked) / cost.perMarkets);
}

/** The part of a venue's budget that polling it between rounds may take: the rest stays for rounds, quotes and the backfill. */
export const POLL_BUDGET_SHARE = 0.1;
export const POLL_CADENCE_MIN_MS = 10_000;
export const POLL_CADENCE_MAX_MS = 15_000;

/**
 * How often a venue without a live stream is refreshed between rounds. The rule: the shortest
 * period at which one refresh (refreshRequests) takes no more than POLL_BUDGET_SHARE of the venue's
 * published rate, `requests / (share × requestsPerSecond)`, held between 10 s (a quicker poll buys
 * little against a one-second publisher) and 15 s (the slowest a fallback may be and still be
 * fresher than rounds by a wide margin); the 15 s ceiling lets BitMEX (0.5 request a second) spend
 * 13 % of its rate. A venue that answers one market (or one batch) per request starts at 15 s and
 * has no ceiling: its cadence grows with what a refresh asks (HTX at 600 contracts: 62 s; GRVT at
 * any breadth 15 s, for it is asked at most a second's worth of its rate a refresh, marketsPerRefresh),
 * since faster its refreshes would crowd out everything else it is asked. With `markets` unknown, a
 * per-market venue is priced at 100 markets. Venues that share one budget (Hyperliquid's main dex and
 * its HIP-3 dexes, budgetOwner) each get an equal part of the owner's rate and no ceiling either:
 * eight venues polled every 15 s would spend most of a one-request-a-second budget.
 */
export function pollCadenceMs(venue: VenueId, markets = 100): number {
  const owner = budgetOwner(venue);
  const sharing = venuesSharing(owner);
  const perSecond = VENUE_REQUEST_LIMITS[owner].requestsPerSecond / sharing;
  const byBudget = Math.ceil((refreshRequests(venue, markets) / (POLL_BUDGET_SHARE * perSecond)) * 1_000);
  if (VENUE_REFRESH_COSTS[venue].perMarkets || sharing > 1) return Math.max(POLL_CADENCE_MAX_MS, byBudget);
  return Math.min(POLL_CADENCE_MAX_MS, Math.max(POLL_CADENCE_MIN_MS, byBudget));
}
