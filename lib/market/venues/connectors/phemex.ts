import type { phemex } from "ccxt";
import { HOUR_MS } from "../../model/funding-interval";
import type { IntervalSource } from "../../model/types";
import { product, readNumber, type FundingObservation } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { asRecord, rowsOf, type VenueAdapter, type CollectContext } from "./venue-adapter";

/**
 * A USDT perpetual's `fundingInterval` (the `perpProductsV2` row of `/public/products`) in
 * seconds: 28800 = 8h. Only whole hours are accepted: the legacy v1 product list states the same
 * field in hours (`"fundingInterval": 8` on the inverse BTCUSD), and ccxt merges v1 rows over v2
 * ones, so a value that is not a whole number of hours in seconds is not read as one.
 */
export function phemexFundingInterval(product: Record<string, unknown> | undefined): {
  hours: number;
  source: IntervalSource;
} | null {
  const seconds = readNumber(product?.fundingInterval);
  if (seconds === undefined || !Number.isInteger(seconds) || seconds <= 0 || seconds % 3600 !== 0) return null;
  return { hours: seconds / 3600, source: "venue" };
}

/**
 * The ticker names no settlement time. Phemex settles on the UTC grid of the interval ("every 8
 * hours at UTC time: 00:00, 08:00 and 16:00", every product's `description`), so the next
 * settlement is the first grid point after the ticker's time; `undefined` without an interval.
 */
export function phemexNextSettlement(observedAt: number | undefined, intervalHours: number | undefined): number | undefined {
  if (observedAt === undefined || !Number.isFinite(observedAt) || intervalHours === undefined) return undefined;
  const length = intervalHours * HOUR_MS;
  return (Math.floor(observedAt / length) + 1) * length;
}

/** The ticker's `timestamp` is epoch nanoseconds, as a string (ccxt's quote) or a JSON number (Phemex's docs). */
function nanosecondsToMs(value: unknown): number | undefined {
  const ns = readNumber(value);
  return ns === undefined ? undefined : Math.floor(ns / 1e6);
}

export const phemexAdapter: VenueAdapter<phemex> = {
  id: "phemex",
  // ccxt loads /public/products (spot, inverse and the USDT `perpProductsV2`) and the v1 contract
  // list in every fetchMarkets and has no option to narrow them.
  create: (lib, config) => new lib.phemex(clientConfig(config)),
  async collect(exchange, context) {
    // /md/v2/ticker/24hr/all: every USDT perpetual in one request, with the rate (`fundingRateRr`,
    // a decimal string per interval), the forecast (`predFundingRateRr`), prices, open interest
    // and turnover. The interval comes from the product list ccxt just loaded as the markets.
    const tickers = rowsOf(await exchange.v2GetMdV2Ticker24hrAll(), "result");
    const observations: FundingObservation[] = [];
    for (const row of tickers) observations.push(phemexObservation(row, context));
    return { observations, warnings: [] };
  },
};

/** One 24-hour ticker, which carries the funding, its interval from the market's info. */
function phemexObservation(row: Record<string, unknown>, { marketsById, fetchedAt }: CollectContext): FundingObservation {
  const id = String(row.symbol ?? "");
  const market = marketsById.get(id);
  const interval = phemexFundingInterval(asRecord(market?.info));
  const observedAt = nanosecondsToMs(row.timestamp);
  const markPrice = readNumber(row.markPriceRp);
  return {
    symbol: market?.symbol ?? id,
    fundingRate: readNumber(row.fundingRateRr),
    predictedFundingRate: readNumber(row.predFundingRateRr),
    interval,
    nextFundingAt: phemexNextSettlement(observedAt, interval?.hours),
    markPrice,
    indexPrice: readNumber(row.indexPriceRp),
    // `openInterestRv` counts the base asset (ccxt reads it as openInterestAmount).
    openInterestUsd: product(readNumber(row.openInterestRv), markPrice),
    // `turnoverRv`: 24h turnover in USDT.
    volume24hUsd: readNumber(row.turnoverRv),
    observedAt: observedAt ?? fetchedAt,
  };
}
