import type { bitget } from "ccxt";
import { parseIntervalHours } from "../../model/funding-interval";
import { product, readNumber, type FundingObservation, type ObservedInterval } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { statedInterval } from "./read-interval";
import { asRecord, indexRows, optional, rowsOf, type VenueAdapter, type CollectContext, type IndexedRows } from "./venue-adapter";

/** Bitget's linear product lines; each is listed and priced separately. */
const LINEAR_PRODUCT_TYPES = ["USDT-FUTURES", "USDC-FUTURES"] as const;

/** `current-fund-rate` states `fundingRateInterval`; the contract list's `fundInterval` backs it up. */
export function bitgetFundingInterval(
  fundingRow: Record<string, unknown>,
  contract: Record<string, unknown> | undefined,
): ObservedInterval | null {
  const hours = parseIntervalHours(fundingRow.fundingRateInterval) ?? parseIntervalHours(contract?.fundInterval);
  return statedInterval(hours);
}

export const bitgetAdapter: VenueAdapter<bitget> = {
  id: "bitget",
  create: (lib, config) => new lib.bitget(clientConfig(config, { fetchMarkets: { types: ["swap"] } })),
  async collect(exchange, context) {
    const warnings: string[] = [];
    // The ticker list has rates and prices but no interval or next settlement, so the funding
    // source is `current-fund-rate` and the tickers only add prices, open interest and volume.
    // Raw calls rather than fetchFundingRates: ccxt reads a garbled answer as an empty list, which
    // would silently empty one product line while the other still makes the venue look healthy.
    const [rateLists, tickerLists] = await Promise.all([
      Promise.all(
        LINEAR_PRODUCT_TYPES.map(async (productType) =>
          rowsOf(await exchange.publicMixGetV2MixMarketCurrentFundRate({ productType })),
        ),
      ),
      Promise.all(
        LINEAR_PRODUCT_TYPES.map((productType) =>
          optional(warnings, `tickers ${productType}`, async () =>
            rowsOf(await exchange.publicMixGetV2MixMarketTickers({ productType })),
          ),
        ),
      ),
    ]);
    const tickers = indexRows(
      tickerLists.flatMap((rows) => rows ?? []),
      "symbol",
    );
    const observations: FundingObservation[] = [];
    for (const row of rateLists.flat()) observations.push(bitgetObservation(row, context, tickers));
    return { observations, warnings };
  },
};

/** One row of the current funding rates, with its prices and volumes from the tickers. */
function bitgetObservation(row: Record<string, unknown>, { marketsById, fetchedAt }: CollectContext, tickers: IndexedRows): FundingObservation {
  const id = String(row.symbol ?? "");
  const market = marketsById.get(id);
  const ticker = tickers.get(id);
  const markPrice = readNumber(ticker?.markPrice);
  return {
    symbol: market?.symbol ?? id,
    fundingRate: readNumber(row.fundingRate),
    rateCap: readNumber(row.maxFundingRate),
    rateFloor: readNumber(row.minFundingRate),
    interval: bitgetFundingInterval(row, asRecord(market?.info)),
    nextFundingAt: readNumber(row.nextUpdate),
    markPrice,
    indexPrice: readNumber(ticker?.indexPrice),
    // `holdingAmount` is open interest in the base asset.
    openInterestUsd: product(readNumber(ticker?.holdingAmount), markPrice),
    volume24hUsd: readNumber(ticker?.quoteVolume),
    observedAt: readNumber(ticker?.ts) ?? fetchedAt,
  };
}
