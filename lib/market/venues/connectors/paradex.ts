import type { paradex } from "ccxt";
import { parseIntervalHours } from "../../model/funding-interval";
import { product, readNumber, symmetricBounds, type FundingObservation, type ObservedInterval } from "./build-snapshot";
import { statedInterval } from "./read-interval";
import { NO_LAST_RESPONSE, PLAIN_JSON } from "./ccxt-client";
import { asRecord, rowsOf, type VenueAdapter, type CollectContext } from "./venue-adapter";

/**
 * Each market states its own funding period (`funding_period_hours`, 8 by default, options 24), and
 * the summary's `funding_rate` is the rate for that whole period, not an 8h-normalised one. Without
 * the field (market lists before it existed, such as the 2024 testnet recording) the interval is
 * unknown, never assumed.
 */
export function paradexFundingInterval(
  market: Record<string, unknown> | undefined,
): ObservedInterval | null {
  const hours = parseIntervalHours(market?.funding_period_hours);
  return statedInterval(hours);
}

export const paradexAdapter: VenueAdapter<paradex> = {
  id: "paradex",
  create: (lib, config) =>
    new lib.paradex({
      ...config,
      ...NO_LAST_RESPONSE,
      ...PLAIN_JSON,
      // Paradex quotes perpetuals in USD and settles them in USDC (`BTC-USD-PERP`); ccxt would make
      // that `BTC/USD:USDC`, which the USDT/USDC-quoted filter drops. Its USD is the USDC
      // collateral, as ccxt itself reads Extended's "USD", so the quote is spelt USDC.
      commonCurrencies: { USD: "USDC" },
      // Currencies are off in ccxt's paradex class already; loadMarkets is the one public
      // `GET /v1/markets`. No key, no Starknet signing: only private endpoints use them.
      has: { fetchCurrencies: false },
    }),
  async collect(exchange, context) {
    // `markets/summary?market=ALL` has every market's rate, mark, underlying price, open interest and
    // volume in one request. Raw rather than fetchFundingRates: ccxt reads a garbled answer as an
    // empty list, where a broken funding payload must make the venue stale.
    const rows = rowsOf(await exchange.publicGetMarketsSummary({ market: "ALL" }), "results");
    const observations: FundingObservation[] = [];
    for (const row of rows) observations.push(paradexObservation(row, context));
    return { observations, warnings: [] };
  },
};

/** One market summary, its bounds and interval from the market's definition. */
function paradexObservation(row: Record<string, unknown>, { marketsById, fetchedAt }: CollectContext): FundingObservation {
  const id = String(row.symbol ?? "");
  const market = marketsById.get(id);
  const definition = asRecord(market?.info);
  const interval = paradexFundingInterval(definition);
  const markPrice = readNumber(row.mark_price);
  return {
    symbol: market?.symbol ?? id,
    fundingRate: readNumber(row.funding_rate),
    // `max_funding_rate` bounds the rate both ways, per funding period like the rate itself.
    ...symmetricBounds(readNumber(definition?.max_funding_rate)),
    interval,
    // Funding accrues continuously into a funding index (updated every second), so there is no
    // settlement time to state.
    nextFundingAt: undefined,
    markPrice,
    // `underlying_price` is the spot price of the underlying; `oracle_price` tracks the mark.
    indexPrice: readNumber(row.underlying_price),
    // `open_interest` counts the base asset; `volume_24h` is already USD notional.
    openInterestUsd: product(readNumber(row.open_interest), markPrice),
    volume24hUsd: readNumber(row.volume_24h),
    observedAt: readNumber(row.created_at) ?? fetchedAt,
  };
}
