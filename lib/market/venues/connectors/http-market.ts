import type { FundingObservation } from "./build-snapshot";
import type { HttpMarket, VenueCollection } from "./venue-adapter";

/**
 * A market an HTTP venue lists, named as ccxt would name it: the unified symbol (`BTC/USDT:USDT`;
 * any other kind of contract gets its id appended, which keeps it apart from the perpetual of the
 * same currencies), and no settlement currency where the row states none. One object literal, not
 * the names spread into the rest: a spread took ~5 µs a market (BitMEX's 600 a refresh: 3 ms).
 */
export function httpMarket(
  id: string,
  currencies: { base: string; quote: string; settle: string },
  swap: boolean,
  rest: Pick<HttpMarket, "linear" | "expiry" | "active" | "taker" | "info">,
): HttpMarket {
  const { base, quote, settle } = currencies;
  return {
    id,
    symbol: swap ? `${base}/${quote}:${settle}` : `${base}/${quote}:${settle}-${id}`,
    base,
    quote,
    settle: settle === "" ? undefined : settle,
    swap,
    linear: rest.linear,
    expiry: rest.expiry,
    active: rest.active,
    taker: rest.taker,
    info: rest.info,
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
