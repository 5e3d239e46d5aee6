import { product, readNumber, runningEstimate, type FundingObservation } from "./build-snapshot";
import { nextWholeHour } from "./dydx";
import { httpMarket, observeListing } from "./http-market";
import { asRecord, rowsOf, type HttpMarket, type HttpVenueAdapter } from "./venue-adapter";

/**
 * Drift settles funding every hour by protocol rule (the AMM's funding period is an hour: BTC's
 * `fundingRateUpdateTs` in the recording is 13:00:10Z); no field of `stats/markets` states it.
 */
const PROTOCOL_INTERVAL_HOURS = 1;

/**
 * `stats/markets` writes `fundingRate.long`/`.short` in **percent** per hour, as **each side's
 * funding P&L**: longs paying shows as a negative `long`. The rate in every other venue's convention
 * (positive: longs pay) is therefore `-long / 100`. In the recording BTC's `long` is "0.00093"
 * beside a 24h average `fundingRate24h` of "-0.000569": longs were being paid, a rate of
 * -0.0000093 an hour (-8 % a year; read as a fraction it would be 815 %). Units and sign as Drift's
 * data API glossary defines the funding records ("funding paid by long positions"), checked by a
 * public client against the records' quote-per-base rates; not read here. Rounded to 15 significant
 * digits so "0.00093" is 0.0000093, not 9.300000000000001e-6.
 */
export function driftRate(long: number | undefined): number | undefined {
  if (long === undefined) return undefined;
  const rate = Number((-long / 100).toPrecision(15));
  // A flat market is zero, not -0.
  return rate === 0 ? 0 : rate;
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
  // Spot markets share the list; they are only counted as excluded. Perpetuals settle in their
  // quote (USDC), which the row does not state apart.
  return httpMarket(id, { base: driftVenueBase(row), quote, settle: quote }, swap, {
    linear: true,
    expiry: undefined,
    active: typeof row.status === "string" ? row.status === "active" : undefined,
    taker: taker !== undefined && Number.isFinite(taker) && taker >= 0 ? taker : undefined,
    info: row,
  });
}

function largerSide(long: number | undefined, short: number | undefined): number | undefined {
  if (long === undefined || short === undefined) return long ?? (short === undefined ? undefined : Math.abs(short));
  return Math.max(Math.abs(long), Math.abs(short));
}

/** One perpetual's observation from its `stats/markets` row. */
export function driftObservation(row: Record<string, unknown>, market: HttpMarket, fetchedAt: number): FundingObservation {
  const funding = asRecord(row.fundingRate);
  // The longs' side: what longs pay stays right if the AMM caps one side asymmetrically.
  const rate = driftRate(readNumber(funding?.long));
  const markPrice = readNumber(row.markPrice);
  const openInterest = asRecord(row.openInterest);
  return {
    symbol: market.symbol,
    // The running estimate of the coming hourly update: it moves between reads while
    // `fundingRateUpdateTs` (the last update) stays, so it is no settled rate. Also the forecast.
    ...runningEstimate(rate),
    interval: { hours: PROTOCOL_INTERVAL_HOURS, source: "protocol" },
    // Updates are lazy (on trades, and once enough time has passed): the next whole hour is the
    // earliest the next one can happen.
    nextFundingAt: nextWholeHour(fetchedAt),
    markPrice,
    indexPrice: readNumber(row.oraclePrice),
    // `openInterest.long`/`.short` count the base asset per side (`short` negative); the AMM holds
    // the difference, so open interest is the larger side.
    openInterestUsd: product(largerSide(readNumber(openInterest?.long), readNumber(openInterest?.short)), markPrice),
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
