import type { FundingObservation } from "./build-snapshot";
import type { HttpMarket, VenueCollection } from "./venue-adapter";

/**
 * The naming fields of a market an HTTP venue lists, as ccxt would give them: the unified symbol
 * (`BTC/USDT:USDT`; any other kind of contract gets its id appended, which keeps it apart from the
 * perpetual of the same currencies), and no settlement currency where the row states none.
 */
export function unifiedMarketNames(
  id: string,
  currencies: { base: string; quote: string; settle: string },
  swap: boolean,
): Pick<HttpMarket, "id" | "symbol" | "base" | "quote" | "settle" | "swap"> {
  const { base, quote, settle } = currencies;
  return {
    id,
    symbol: swap ? `${base}/${quote}:${settle}` : `${base}/${quote}:${settle}-${id}`,
    base,
    quote,
    settle: settle === "" ? undefined : settle,
    swap,
  };
}

/**
 * For venues whose market list is also the funding payload (one request a refresh): an observation
 * of every listed market, read from its row.
 */
export function observeListing(
  marketsById: ReadonlyMap<string, HttpMarket>,
  observe: (row: Record<string, unknown>, market: HttpMarket) => FundingObservation,
): VenueCollection {
  return { observations: [...marketsById.values()].map((market) => observe(market.info, market)), warnings: [] };
}
