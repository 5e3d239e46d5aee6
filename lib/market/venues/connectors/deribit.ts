import type { deribit, MarketInterface } from "ccxt";
import { product, readNumber, type FundingObservation, type ObservedInterval } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { asRecord, rowsOf, type VenueAdapter } from "./venue-adapter";

/** The settlement currencies of Deribit's linear instruments; BTC/ETH-settled ones are inverse. */
const LINEAR_SETTLEMENTS = ["USDC", "USDT"] as const;

/**
 * Deribit settles no funding interval: funding is calculated and paid continuously, and Deribit
 * expresses its rates as 8-hour rates ("to aid readability the funding rate is expressed as an
 * 8-hour interest rate", Funding Specifications). So a rate is read as the rate of an 8-hour
 * interval whose source says it is continuous.
 */
export const DERIBIT_INTERVAL: ObservedInterval = { hours: 8, source: "continuous" };

/**
 * One perpetual's funding from a `get_book_summary_by_currency` row or a `ticker` result (the same
 * field names; the ticker adds `index_price`, `timestamp` and `stats`):
 * - rate: `current_funding`, the rate accruing now (0 while the premium sits inside the ±0.025 %
 *   damper), per 8 hours as Deribit expresses every rate: what a position opened now earns, so what
 *   opportunities rank on;
 * - last settled figure: `funding_8h`, the funding actually paid over the trailing 8 hours (per 8
 *   hours), dated at the observation; it can have the other sign (ccxt's own example: +1.3e-4 now,
 *   −8.1e-4 trailing);
 * - no forecast and no next settlement: there is none to wait for;
 * - `open_interest` counts the base coin on linear instruments and USD on inverse ones.
 */
export function deribitObservation(
  row: Record<string, unknown>,
  market: MarketInterface | undefined,
  fetchedAt: number,
): FundingObservation {
  const markPrice = readNumber(row.mark_price);
  const openInterest = readNumber(row.open_interest);
  const stats = asRecord(row.stats) ?? {};
  const observedAt = readNumber(row.timestamp ?? row.creation_timestamp) ?? fetchedAt;
  const trailing = readNumber(row.funding_8h);
  return {
    symbol: market?.symbol ?? String(row.instrument_name ?? ""),
    fundingRate: readNumber(row.current_funding),
    // Deribit's funding caps vary by instrument and are not in these payloads.
    rateCap: undefined,
    rateFloor: undefined,
    interval: DERIBIT_INTERVAL,
    nextFundingAt: undefined,
    markPrice,
    indexPrice: readNumber(row.index_price),
    openInterestUsd: market?.linear === true ? product(openInterest, markPrice) : openInterest,
    volume24hUsd: readNumber(row.volume_usd ?? stats.volume_usd),
    observedAt,
    lastSettlement: trailing !== undefined && Number.isFinite(trailing) && Number.isFinite(observedAt) ? { rate: trailing, at: observedAt } : undefined,
  };
}

export const deribitAdapter: VenueAdapter<deribit> = {
  id: "deribit",
  create: (lib, config) => {
    const exchange = new lib.deribit(clientConfig(config));
    // ccxt loads every instrument, thousands of options included; futures (perpetuals and dated)
    // are the only kind with funding. Deribit dates its perpetuals to year 3000 (`expiration_timestamp` 32503708800000) and ccxt
    // copies that into `expiry`; a perpetual has none, which is what tells it from a delivery future.
    const fetchMarkets = exchange.fetchMarkets.bind(exchange);
    exchange.fetchMarkets = async (params = {}) =>
      (await fetchMarkets({ kind: "future", ...params })).map((market) =>
        market !== undefined && market.swap === true ? { ...market, expiry: undefined, expiryDatetime: undefined } : market,
      );
    return exchange;
  },
  async collect(exchange, { marketsById, fetchedAt }) {
    // One book summary per linear settlement currency carries every perpetual's funding, mark,
    // open interest and volume; inverse (coin-settled) books are not asked for.
    const lists = await Promise.all(
      LINEAR_SETTLEMENTS.map(async (currency) =>
        rowsOf(await exchange.publicGetGetBookSummaryByCurrency({ currency, kind: "future" }), "result"),
      ),
    );
    const observations = lists.flat().map((row) => deribitObservation(row, marketsById.get(String(row.instrument_name ?? "")), fetchedAt));
    return { observations, warnings: [] };
  },
};
