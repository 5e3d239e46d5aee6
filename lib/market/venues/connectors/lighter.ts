import type { lighter } from "ccxt";
import { product, readNumber, type FundingObservation } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { nextWholeHour } from "./dydx";
import { rowsOf, type VenueAdapter, type CollectContext, type IndexedRows } from "./venue-adapter";

/** Lighter settles funding at every hour mark by protocol rule (docs.lighter.xyz, "Funding"). */
const PROTOCOL_INTERVAL_HOURS = 1;

/** `funding-rates` also lists Binance's, Bybit's and Hyperliquid's rates per symbol; only these rows are Lighter's. */
const OWN_EXCHANGE = "lighter";

/**
 * `GET /api/v1/funding-rates` writes each rate as a fraction over eight hours, whatever the venue
 * settles on (so Lighter's hourly rate and Binance's 8h rate compare in its table). Lighter settles
 * hourly, so its own rate per interval is the eight-hour figure ÷ 8: the recorded ETH row
 * `0.00009599999999999999` is 0.000012 an hour, the same value `GET /fundings` lists per hour
 * (`"0.0012"`, in percent). The rate is a bare float with binary noise, so the quotient is rounded
 * to 12 significant digits. Absent stays absent and a garbled value stays NaN, so the row is
 * rejected rather than guessed.
 */
export function lighterHourlyRate(eightHourRate: unknown): number | undefined {
  const rate = readNumber(eightHourRate);
  if (rate === undefined || !Number.isFinite(rate)) return rate;
  return Number((rate / 8).toPrecision(12));
}

export const lighterAdapter: VenueAdapter<lighter> = {
  id: "lighter",
  // Markets come from `GET /api/v1/orderBookDetails` (perps and spot; spot is excluded as not a
  // perpetual). ccxt's lighter class would also fetch `assetDetails` for currencies, which a funding
  // snapshot does not need, so currencies are off and loadMarkets is one public request. Nothing
  // here loads Lighter's signing library or needs a key: only private calls use them.
  create: (lib, config) => new lib.lighter(clientConfig(config)),
  async collect(exchange, context) {
    // Raw call rather than fetchFundingRates: ccxt reads a garbled answer as an empty list and
    // drops the rows it cannot map, where a broken funding payload must make the venue stale.
    // orderBookDetails is also the market list, which is kept for MARKETS_TTL_MS: its prices, open
    // interest and volume are asked again each refresh, or they would be published minutes old as fresh.
    const [funding, bookDetails] = await Promise.all([exchange.publicGetFundingRates(), exchange.publicGetOrderBookDetails()]);
    const rows = rowsOf(funding, "funding_rates").filter((row) => row.exchange === OWN_EXCHANGE);
    const detailsById = new Map(rowsOf(bookDetails, "order_book_details").map((row) => [String(row.market_id ?? ""), row]));
    const observations: FundingObservation[] = [];
    for (const row of rows) observations.push(lighterObservation(row, context, detailsById));
    return { observations, warnings: [] };
  },
};

/** One of Lighter's own funding rates, with its prices, open interest and volume from the order book details. */
function lighterObservation(row: Record<string, unknown>, { marketsById, fetchedAt }: CollectContext, detailsById: IndexedRows): FundingObservation {
  const id = String(row.market_id ?? "");
  const market = marketsById.get(id);
  const details = detailsById.get(id) ?? {};
  // orderBookDetails carries `mark_price`/`index_price` only in recent answers (the recorded
  // 2025-11 and 2026-05 ones have neither); the last trade is not a mark, so without them the
  // prices stay unknown. Open interest counts the base asset: it is sized in dollars at the
  // mark where sent, else at the last trade.
  const markPrice = readNumber(details.mark_price);
  const sizingPrice = markPrice ?? readNumber(details.last_trade_price);
  return {
    symbol: market?.symbol ?? id,
    fundingRate: lighterHourlyRate(row.rate),
    interval: { hours: PROTOCOL_INTERVAL_HOURS, source: "protocol" },
    // The payload states no settlement time; settlements fall on every whole UTC hour.
    nextFundingAt: nextWholeHour(fetchedAt),
    markPrice,
    indexPrice: readNumber(details.index_price),
    openInterestUsd: product(readNumber(details.open_interest), sizingPrice),
    volume24hUsd: readNumber(details.daily_quote_token_volume),
    // Neither payload carries a time.
    observedAt: fetchedAt,
  };
}
