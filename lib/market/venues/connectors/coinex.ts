import type { coinex } from "ccxt";
import { product, readNumber, type FundingObservation, type ObservedInterval } from "./build-snapshot";
import { clientConfig, loadMarketsWith } from "./ccxt-client";
import { intervalBetweenSettlements } from "./read-interval";
import { asRecord, optionalIndex, rowsOf, type VenueAdapter, type CollectContext, type IndexedRows } from "./venue-adapter";

/**
 * CoinEx states no interval: `latest_funding_time` is the settlement the current rate is collected
 * at and `next_funding_time` the one after (CoinEx v2 docs: 8h by default, moved to 2h or 4h when
 * the premium runs high), so their distance is the interval, as on OKX.
 */
export function coinexFundingInterval(row: Record<string, unknown>): ObservedInterval | null {
  return intervalBetweenSettlements(row.latest_funding_time, row.next_funding_time);
}

export const coinexAdapter: VenueAdapter<coinex> = {
  id: "coinex",
  // ccxt's fetchMarkets always loads the whole spot list (/v2/spot/market) beside the futures
  // one and has no option to skip it; spot ids (`BTCUSDT`) are also the futures ids, so the two
  // would share one entry of the markets-by-id map. ccxt's own fetchContractMarkets loads the
  // futures list alone (/v2/futures/market), which is all a refresh needs.
  create: (lib, config) =>
    loadMarketsWith(new lib.coinex(clientConfig(config)), (exchange, params) => exchange.fetchContractMarkets(params)),
  // `is_market_available: false` is a market CoinEx has closed; ccxt leaves `active` undefined.
  isTradable: (market) => asRecord(market.info)?.is_market_available !== false,
  async collect(exchange, context) {
    const warnings: string[] = [];
    // /v2/futures/funding-rate without `market` answers every market in one request: rate, the
    // forecast, its bounds, both settlement times and the mark price. Raw rather than
    // fetchFundingRates, which would read a garbled answer as an empty list.
    const [rates, tickers] = await Promise.all([
      exchange.v2PublicGetFuturesFundingRate().then((payload) => rowsOf(payload)),
      optionalIndex(warnings, "ticker", "market", () => exchange.v2PublicGetFuturesTicker()),
    ]);
    const observations: FundingObservation[] = [];
    for (const row of rates) observations.push(coinexObservation(row, context, tickers));
    return { observations, warnings };
  },
};

/** One row of the funding rates, with its prices and volume from the tickers and its open interest from the market's info. */
function coinexObservation(row: Record<string, unknown>, { marketsById, fetchedAt }: CollectContext, tickers: IndexedRows | undefined): FundingObservation {
  const id = String(row.market ?? "");
  const market = marketsById.get(id);
  const ticker = tickers?.get(id);
  const markPrice = readNumber(row.mark_price) ?? readNumber(ticker?.mark_price);
  return {
    symbol: market?.symbol ?? id,
    // The current period's rate, recomputed every minute until it is collected.
    fundingRate: readNumber(row.latest_funding_rate),
    // The forecast for the period after; CoinEx sets it equal to the current rate at collection.
    predictedFundingRate: readNumber(row.next_funding_rate),
    rateCap: readNumber(row.max_funding_rate),
    rateFloor: readNumber(row.min_funding_rate),
    interval: coinexFundingInterval(row),
    nextFundingAt: readNumber(row.latest_funding_time),
    markPrice,
    indexPrice: readNumber(ticker?.index_price),
    // The futures market list (loaded as the markets) states open interest in contracts of one
    // base unit each on linear markets (ccxt's contractSize 1).
    openInterestUsd: product(readNumber(asRecord(market?.info)?.open_interest_volume), markPrice),
    // `value` is the 24h turnover in the quote currency (USDT).
    volume24hUsd: readNumber(ticker?.value),
    // No time in either payload.
    observedAt: fetchedAt,
  };
}
