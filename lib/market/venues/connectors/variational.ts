import { tickerUnderlyingClass } from "../../model/underlying-class";
import { readNumber, type FundingObservation } from "./build-snapshot";
import { httpMarket, observeListing } from "./http-market";
import { asRecord, rowsOf, type HttpMarket, type HttpVenueAdapter } from "./venue-adapter";

const HOURS_PER_YEAR = 8_760;

/**
 * `funding_rate` is an **annualised** fraction, not the rate per `funding_interval_s`. The docs say
 * only "Current funding rate (decimal)"; the unit shows in the values of the recorded answer
 * (tests/fixtures/venues/variational/SOURCES.md): crypto listings at rest read 0.1095, which is the
 * documented interest component of 0.00125 % an hour times 8760; the pre-IPO OPENAI reads 0.05475,
 * its documented fixed 0.005 % every 8 hours times 1095 eight-hour periods; STORJ's -85.54 on a 1 h
 * interval would be -8554 % an hour per interval, but is -0.98 % an hour annualised. The rate per
 * settlement is therefore `funding_rate × interval hours / 8760`. Rounded to 15 significant digits
 * so the division does not leave binary noise in the last place.
 */
export function variationalRate(annualised: number | undefined, intervalHours: number | undefined): number | undefined {
  if (annualised === undefined || intervalHours === undefined) return undefined;
  if (!Number.isFinite(annualised) || !Number.isFinite(intervalHours)) return Number.NaN;
  return Number(((annualised * intervalHours) / HOURS_PER_YEAR).toPrecision(15));
}

/**
 * Variational charges no maker or taker fee: its one maker (the OLP vault) quotes every trade at a
 * spread around the mark (FEES.md: no maker/taker schedule; `/metadata/stats` states
 * `base_spread_bps`, "Base spread in basis points"). A taker crossing it pays half the spread
 * against the mark on each fill, which is what a taker fee charges on the venues net APR compares
 * it with; so the market's `taker` is half the listing's base spread, as a fraction.
 */
export function variationalSpreadCost(baseSpreadBps: number | undefined): number | undefined {
  if (baseSpreadBps === undefined || !Number.isFinite(baseSpreadBps) || baseSpreadBps < 0) return undefined;
  return Number((baseSpreadBps / 2 / 10_000).toPrecision(15));
}

function intervalHoursOf(row: Record<string, unknown>): number | undefined {
  const seconds = readNumber(row.funding_interval_s);
  return seconds === undefined ? undefined : seconds / 3_600;
}

function toMarket(row: Record<string, unknown>): HttpMarket {
  const id = typeof row.ticker === "string" ? row.ticker : "";
  const seconds = readNumber(row.funding_interval_s);
  // Listings with no funding interval (`funding_interval_s` 0) are Variational's "Swap on …" products
  // (gold, oil and index swaps), which accrue a daily long and a short rate the stats do not carry:
  // no perpetual funding to compare, so they are listed as other contracts and counted as excluded.
  const perpetual = seconds !== undefined && Number.isFinite(seconds) && seconds > 0;
  // The ticker is the traded unit (`1000PEPE`), so a bundle keeps its multiplier. Prices, volumes
  // and settlement are in USDC (the docs: "Prices and volumes are denominated in USDC").
  return httpMarket(id, { base: id, quote: "USDC", settle: "USDC" }, perpetual, {
    linear: true,
    expiry: undefined,
    // The stats list only live listings (`num_markets` equals their count) and carry no status.
    active: undefined,
    taker: variationalSpreadCost(readNumber(row.base_spread_bps)),
    info: row,
  });
}

/** One listing's observation from its `/metadata/stats` row. */
export function variationalObservation(row: Record<string, unknown>, market: HttpMarket, fetchedAt: number): FundingObservation {
  const hours = intervalHoursOf(row);
  const openInterest = asRecord(row.open_interest);
  const long = readNumber(openInterest?.long_open_interest);
  const short = readNumber(openInterest?.short_open_interest);
  const underlying = tickerUnderlyingClass(market.base);
  return {
    symbol: market.symbol,
    fundingRate: variationalRate(readNumber(row.funding_rate), hours),
    // Variational publishes its current rate only: no forecast, no settled rate, no bound and no
    // settlement time in any public answer (the docs list one endpoint), so those stay null.
    predictedFundingRate: undefined,
    interval: hours !== undefined && Number.isFinite(hours) && hours > 0 ? { hours, source: "venue" } : null,
    nextFundingAt: undefined,
    markPrice: readNumber(row.mark_price),
    // No index or oracle price in the stats.
    indexPrice: undefined,
    // Open interest is stated per side in USDC: every position faces the OLP vault, so the two sides
    // are separate positions and open interest is their sum.
    openInterestUsd: long !== undefined && short !== undefined ? long + short : undefined,
    volume24hUsd: readNumber(row.volume_24h),
    // `quotes.updated_at` dates the cached quotes (up to 600 s old), not the funding rate.
    observedAt: fetchedAt,
    // Variational declares no class; a ticker the shared table knows (TSLA) carries its class, any
    // other is taken as crypto, which can mislabel a stock the table lacks (CAT is Caterpillar here).
    ...(underlying === undefined || underlying === "crypto" ? {} : { underlyingClass: underlying }),
  };
}

/**
 * Variational Omni over plain HTTP (no ccxt class): its read-only API's one endpoint,
 * `GET /metadata/stats`, lists every listing with its funding rate, interval, mark, open interest,
 * volume and spread, so it is the market list and the funding payload at once: one request per refresh.
 */
export const variationalAdapter: HttpVenueAdapter = {
  kind: "http",
  id: "variational",
  baseUrl: "https://omni-client-api.prod.ap-northeast-1.variational.io",
  // 10 requests per 10 s per IP (docs.variational.io/technical-documentation/api).
  requestSpacingMs: 1_000,
  async loadMarkets(http) {
    return rowsOf(await http.getJson("/metadata/stats"), "listings").map(toMarket);
  },
  async collect(_http, { marketsById, fetchedAt }) {
    return observeListing(marketsById, (row, market) => variationalObservation(row, market, fetchedAt));
  },
};
