import { HOUR_MS } from "../../model/funding-interval";
import { product, readNumber, type FundingObservation } from "./build-snapshot";
import { nextWholeHour } from "./dydx";
import { observeListing, unifiedMarketNames } from "./http-market";
import { asRecord, rowsOf, type HttpMarket, type HttpVenueAdapter } from "./venue-adapter";

/**
 * Drift settles funding every hour by protocol rule (the AMM's funding period is an hour: BTC's
 * `fundingRateUpdateTs` in the recording is 13:00:10Z); no field of `stats/markets` states it.
 */
const PROTOCOL_INTERVAL_HOURS = 1;

/**
 * `stats/markets` writes `fundingRate.long`/`.short` in **percent** per hour: BTC's `"0.00093"` is
 * 0.00093 % an hour (8 % a year), where read as a fraction it would be 815 % a year. Rounded to 15
 * significant digits so `"0.00093"` is 0.0000093, not 9.300000000000001e-6.
 */
function percent(value: number | undefined): number | undefined {
  return value === undefined ? undefined : Number((value / 100).toPrecision(15));
}

/**
 * Drift's market name without `-PERP`: the unit the market trades in. Bundled markets are named
 * for the bundle (`1MPEPE-PERP`: a million PEPE; `1KWEN-PERP`: a thousand WEN), while `baseAsset`
 * may name the bare token, which would lose the multiplier; the name keeps it.
 */
export function driftVenueBase(row: Record<string, unknown>): string {
  const symbol = typeof row.symbol === "string" ? row.symbol : "";
  const named = symbol.endsWith("-PERP") ? symbol.slice(0, -"-PERP".length) : "";
  return named !== "" ? named : String(row.baseAsset ?? "");
}

function toMarket(row: Record<string, unknown>): HttpMarket {
  const id = typeof row.symbol === "string" ? row.symbol : "";
  const quote = String(row.quoteAsset ?? "").toUpperCase();
  const swap = row.marketType === "perp";
  const fees = asRecord(row.fees);
  const taker = readNumber(fees?.taker);
  return {
    // Spot markets share the list; they are only counted as excluded. Perpetuals settle in their
    // quote (USDC), which the row does not state apart.
    ...unifiedMarketNames(id, { base: driftVenueBase(row), quote, settle: quote }, swap),
    linear: true,
    expiry: undefined,
    active: typeof row.status === "string" ? row.status === "active" : undefined,
    taker: taker !== undefined && Number.isFinite(taker) && taker >= 0 ? taker : undefined,
    info: row,
  };
}

/** One perpetual's observation from its `stats/markets` row. */
export function driftObservation(row: Record<string, unknown>, market: HttpMarket, fetchedAt: number): FundingObservation {
  const funding = asRecord(row.fundingRate);
  // The rate longs pay (positive) or receive: the sign convention of every other venue. `short` is
  // its mirror image except when the AMM's side is capped.
  const rate = percent(readNumber(funding?.long));
  const updatedSeconds = readNumber(row.fundingRateUpdateTs);
  const updatedAt = updatedSeconds === undefined ? undefined : updatedSeconds * 1_000;
  const markPrice = readNumber(row.markPrice);
  const openInterest = asRecord(row.openInterest);
  return {
    symbol: market.symbol,
    // The rate of the last hourly update (at `fundingRateUpdateTs`); Drift publishes no forecast here.
    fundingRate: rate,
    predictedFundingRate: undefined,
    interval: { hours: PROTOCOL_INTERVAL_HOURS, source: "protocol" },
    nextFundingAt: nextWholeHour(fetchedAt),
    // The settled rate the row states, at the hour it was settled (seconds in the payload).
    lastSettlement:
      rate !== undefined && Number.isFinite(rate) && updatedAt !== undefined && Number.isFinite(updatedAt)
        ? { rate, at: Math.floor(updatedAt / HOUR_MS) * HOUR_MS }
        : undefined,
    markPrice,
    indexPrice: readNumber(row.oraclePrice),
    // `openInterest.long` counts the base asset held long (`short` the same, negative).
    openInterestUsd: product(readNumber(openInterest?.long), markPrice),
    volume24hUsd: readNumber(row.quoteVolume),
    // The row carries no time of its own beside the funding update's.
    observedAt: fetchedAt,
  };
}

/**
 * Drift (Solana) over plain HTTP, from its data API (the installed ccxt has no drift class).
 * `GET /stats/markets` lists every market with its funding, prices, open interest and volume, so
 * it is the market list and the funding payload at once: one request per refresh.
 */
export const driftAdapter: HttpVenueAdapter = {
  kind: "http",
  id: "drift",
  baseUrl: "https://data.api.drift.trade",
  requestSpacingMs: 250,
  async loadMarkets(http) {
    return rowsOf(await http.getJson("/stats/markets"), "markets").map(toMarket);
  },
  async collect(_http, { marketsById, fetchedAt }) {
    return observeListing(marketsById, (row, market) => driftObservation(row, market, fetchedAt));
  },
};
