import type { VenueId } from "../model/types";

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

/** Every venue's budget: one table, read by the live clients, the quotes' books and the backfill alike. */
export const VENUE_REQUEST_LIMITS: Readonly<Record<VenueId, VenueRequestLimit>> = {
  binance: limit(2_400 / 60, "https://developers.binance.com/docs/derivatives/usds-margined-futures/general-info (REQUEST_WEIGHT 2400 a minute per IP)"),
  bybit: limit(600 / 5, "https://bybit-exchange.github.io/docs/v5/rate-limit (600 requests per 5 s per IP)"),
  okx: limit(20 / 2, "https://www.okx.com/docs-v5/en/#overview-rate-limits (public data: 20 requests per 2 s per IP)"),
  bitget: limit(20, "https://www.bitget.com/api-doc/common/intro (market data: 20 requests a second per IP)"),
  gate: limit(200 / 10, "https://www.gate.io/docs/developers/apiv4/#frequency-limit-rule (public: 200 requests per 10 s per endpoint)"),
  hyperliquid: limit(1_200 / 20 / 60, "https://hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/rate-limits-and-user-limits (weight 1200 a minute; info requests weigh 20)"),
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
};
