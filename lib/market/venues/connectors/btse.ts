import type { btse, MarketInterface } from "ccxt";
import { readNumber, type FundingObservation } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { statedMinutes } from "./read-interval";
import { asRecord, rowsOf, type VenueAdapter } from "./venue-adapter";

/**
 * One perpetual from its `GET /public-api/market/v1/ticker/24hr` row. The row states the rate, its
 * interval in minutes and the next settlement; it carries no mark or index price, so those are
 * `null` and open interest (`openInterest`, in contracts of `contractSize` base units) is valued at
 * the last trade.
 */
export function btseObservation(symbol: string, row: Record<string, unknown>, contractSize: number | undefined, answeredAt: number): FundingObservation {
  const openInterest = readNumber(row.openInterest);
  const lastPrice = readNumber(row.lastPrice);
  const closedAt = readNumber(row.closeTime);
  return {
    symbol,
    // `fundingRate` is BTSE's one rate for the period settling at `nextFundingTime`; BTSE publishes
    // no forecast apart from it, and its docs do not say whether it is an estimate, so none is served.
    fundingRate: readNumber(row.fundingRate),
    predictedFundingRate: undefined,
    interval: statedMinutes(row.fundingIntervalMinutes),
    nextFundingAt: readNumber(row.nextFundingTime),
    markPrice: undefined,
    indexPrice: undefined,
    openInterestUsd:
      openInterest === undefined || lastPrice === undefined || contractSize === undefined ? undefined : openInterest * contractSize * lastPrice,
    // `volume` is the 24h turnover in the quote (USDT); `amount` counts contracts.
    volume24hUsd: readNumber(row.volume),
    // The row's `closeTime` (seconds) ends its 24h window: when its figures were read.
    observedAt: closedAt !== undefined && Number.isFinite(closedAt) && closedAt > 0 ? closedAt * 1_000 : answeredAt,
  };
}

export const btseAdapter: VenueAdapter<btse> = {
  id: "btse",
  // ccxt's fetchMarkets is the one `GET /public-api/market/v1/markets` (spot, perpetual and dated
  // futures in one list); perpetuals are linear, quoted and settled in USDT (`BTC-PERP-USDT`).
  create: (lib, config) => new lib.btse(clientConfig(config)),
  async collect(exchange, { marketsById, fetchedAt }) {
    // The 24h tickers answer every market at once; contract rows carry the funding fields, spot rows
    // none (they are not funding rows). Raw rather than fetchFundingRates, which would read a
    // garbled answer as an empty list.
    const payload = asRecord(await exchange.publicGetPublicApiMarketV1Ticker24hr());
    const answered = readNumber(payload?.time);
    const answeredAt = answered !== undefined && Number.isFinite(answered) ? answered : fetchedAt;
    const rows = rowsOf(payload).filter((row) => "fundingRate" in row);
    const observations = rows.map((row): FundingObservation => {
      const id = String(row.symbol ?? "");
      const market: MarketInterface | undefined = marketsById.get(id);
      return btseObservation(market?.symbol ?? id, row, market?.contractSize, answeredAt);
    });
    return { observations, warnings: [] };
  },
};
