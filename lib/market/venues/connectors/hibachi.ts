import type { UnderlyingClass } from "../../model/types";
import { tickerUnderlyingClass } from "../../model/underlying-class";
import { product, readNumber, runningEstimate, type FundingObservation } from "./build-snapshot";
import { nextWholeHour } from "./dydx";
import { httpMarket, observeListing } from "./http-market";
import { asRecord, rowsOf, type HttpMarket, type HttpVenueAdapter } from "./venue-adapter";

/**
 * Hibachi settles funding every hour: its recorded funding history (`/market/data/funding-rates`,
 * tests/fixtures/venues/hibachi/SOURCES.md) has one BTC row every 3600 s, on the hour. No field states
 * the interval, so its source is `protocol`. ccxt's hibachi class hard-codes `8h`, which that history
 * contradicts; read as 8-hour rates the recorded estimates (BTC 0.000006) would sit far below every
 * other venue's.
 */
const PROTOCOL_INTERVAL_HOURS = 1;

/**
 * The class Hibachi declares: `contract.category` is CRYPTO or FX, and it files metals under FX with
 * the `commodity` tag (XAG). Another category takes the shared table's class for the ticker, else `other`.
 */
export function hibachiUnderlyingClass(category: unknown, tags: unknown, base: string): UnderlyingClass {
  if (typeof category === "string" && category.toUpperCase() === "CRYPTO") return "crypto";
  const tagged = Array.isArray(tags) && tags.some((tag) => typeof tag === "string" && tag.toLowerCase() === "commodity");
  if (tagged) return "commodity";
  if (typeof category === "string" && category.toUpperCase() === "FX") return "fx";
  return tickerUnderlyingClass(base) ?? "other";
}

function toMarket(row: Record<string, unknown>): HttpMarket {
  const contract = asRecord(row.contract) ?? {};
  const id = typeof contract.symbol === "string" ? contract.symbol : "";
  const settle = String(contract.settlementSymbol ?? "").toUpperCase();
  // `BTC/USDT-P`: every contract is a USDT-settled perpetual of `underlyingSymbol`.
  return httpMarket(id, { base: String(contract.underlyingSymbol ?? "").toUpperCase(), quote: settle, settle }, id.endsWith("-P"), {
    linear: true,
    expiry: undefined,
    // LIVE, or CLOSED for a delisted market (which the inventory keeps listing).
    active: typeof contract.status === "string" ? contract.status === "LIVE" : undefined,
    taker: undefined,
    info: row,
  });
}

/** One contract's observation from its inventory entry (`contract` and its live `info`). */
export function hibachiObservation(row: Record<string, unknown>, market: HttpMarket, fetchedAt: number): FundingObservation {
  const contract = asRecord(row.contract) ?? {};
  const info = asRecord(row.info) ?? {};
  const markPrice = readNumber(info.markPrice);
  const underlying = hibachiUnderlyingClass(contract.category, info.tags, market.base);
  return {
    symbol: market.symbol,
    // `estimatedFundingRate`: the estimate for the coming hourly settlement (the same figure
    // `/market/data/prices` names `fundingRateEstimation.estimatedFundingRate`), so also the forecast.
    // The settled rates are only in the funding history, which a refresh does not read.
    ...runningEstimate(readNumber(info.estimatedFundingRate)),
    // No cap or floor: Hibachi states none.
    rateCap: undefined,
    rateFloor: undefined,
    interval: { hours: PROTOCOL_INTERVAL_HOURS, source: "protocol" },
    // The inventory states no time; `/market/data/prices` gives each market's `nextFundingTimestamp`,
    // the next whole hour, which is one request a market.
    nextFundingAt: nextWholeHour(fetchedAt),
    markPrice,
    // `spotPrice` is the underlying's spot reference.
    indexPrice: readNumber(info.spotPrice),
    // `openInterestQuantity` counts the base asset; `volume24h` is already USDT notional.
    openInterestUsd: product(readNumber(info.openInterestQuantity), markPrice),
    volume24hUsd: readNumber(info.volume24h),
    observedAt: fetchedAt,
    ...(underlying === "crypto" ? {} : { underlyingClass: underlying }),
  };
}

/**
 * Hibachi over plain HTTP. ccxt's hibachi class reads funding one market per request
 * (`fetchFundingRate` on `/market/data/prices?symbol=`) and fixes the interval at 8 h; the data API's
 * `GET /market/inventory` carries every contract with its live estimate, prices, open interest and
 * volume, so one request per refresh is the market list and the funding payload at once.
 */
export const hibachiAdapter: HttpVenueAdapter = {
  kind: "http",
  id: "hibachi",
  baseUrl: "https://data-api.hibachi.xyz",
  // Hibachi publishes no per-IP figure; ccxt's hibachi class throttles at 100 ms.
  requestSpacingMs: 100,
  async loadMarkets(http) {
    return rowsOf(await http.getJson("/market/inventory"), "markets").map(toMarket);
  },
  async collect(_http, { marketsById, fetchedAt }) {
    return observeListing(marketsById, (row, market) => hibachiObservation(row, market, fetchedAt));
  },
};
