import type { bingx } from "ccxt";
import { parseIntervalHours } from "../../model/funding-interval";
import { readNumber, type FundingObservation } from "./build-snapshot";
import { clientConfig, loadMarketsWith } from "./ccxt-client";
import { statedInterval } from "./read-interval";
import { optionalIndex, rowsOf, type VenueAdapter, type CollectContext, type IndexedRows } from "./venue-adapter";

export const bingxAdapter: VenueAdapter<bingx> = {
  id: "bingx",
  // ccxt's bingx.fetchMarkets also loads the spot symbols and the coin-margined contracts, with no
  // option to skip them; its fetchSwapMarkets is the USDT-margined list alone
  // (GET /openApi/swap/v2/quote/contracts), which is all this client needs.
  create: (lib, config) =>
    loadMarketsWith(new lib.bingx(clientConfig(config)), (exchange, params) => exchange.fetchSwapMarkets(params)),
  async collect(exchange, context) {
    const warnings: string[] = [];
    // premiumIndex without a symbol answers every USDT-margined contract: rate, interval
    // (`fundingIntervalHours`), next settlement, bounds, mark and index prices and the venue's time.
    // The 24h ticker adds turnover. BingX has no all-contract open interest (its openInterest
    // endpoint takes one symbol), so open interest stays unknown rather than costing a request per
    // contract.
    const [rows, tickers] = await Promise.all([
      exchange.swapV2PublicGetQuotePremiumIndex().then((payload) => rowsOf(payload)),
      optionalIndex(warnings, "ticker", "symbol", () => exchange.swapV2PublicGetQuoteTicker()),
    ]);
    const observations: FundingObservation[] = [];
    for (const row of rows) observations.push(bingxObservation(row, context, tickers));
    return { observations, warnings };
  },
};

/** One row of the premium index, with its volume from the tickers. */
function bingxObservation(row: Record<string, unknown>, { marketsById, fetchedAt }: CollectContext, tickers: IndexedRows | undefined): FundingObservation {
  const id = String(row.symbol ?? "");
  const hours = parseIntervalHours(row.fundingIntervalHours);
  return {
    symbol: marketsById.get(id)?.symbol ?? id,
    // `lastFundingRate` is the running rate of the current interval, which settles next.
    fundingRate: readNumber(row.lastFundingRate),
    rateCap: readNumber(row.maxFundingRate),
    rateFloor: readNumber(row.minFundingRate),
    interval: statedInterval(hours),
    nextFundingAt: readNumber(row.nextFundingTime),
    markPrice: readNumber(row.markPrice),
    indexPrice: readNumber(row.indexPrice),
    openInterestUsd: undefined,
    // `quoteVolume` is the 24h turnover in USDT.
    volume24hUsd: readNumber(tickers?.get(id)?.quoteVolume),
    observedAt: readNumber(row.updateTime) ?? fetchedAt,
  };
}
