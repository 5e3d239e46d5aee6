import { ASSET_MAP } from "../model/asset-map";
import { normaliseBase } from "../model/normalise-base";
import type { VenueId } from "../model/types";
import type { SpotTickerRow, SpotTickerVenue } from "./read-spot-tickers";
import { spotLegSchema, type BorrowRate, type SpotLeg } from "./spot-leg";
import { SPOT_TAKER_FEES } from "./spot-taker-fees";

/**
 * Quotes counted as one US dollar when a spot volume is stated in USD. Only dollar stablecoins:
 * a BTC- or EUR-quoted volume would need a conversion rate, so it stays null rather than a guess.
 */
const USD_STABLECOIN_QUOTES: ReadonlySet<string> = new Set(["USDT", "USDC", "FDUSD", "TUSD", "USDE", "BUSD", "DAI", "USD"]);

/**
 * The venue id a spot venue's legs carry. The service names an exchange by its perp connector, and
 * KuCoin's perps have their own (`kucoinfutures`): its spot market is that same exchange's.
 */
export const SPOT_VENUE_EXCHANGE: Record<SpotTickerVenue, VenueId> = {
  binance: "binance",
  bybit: "bybit",
  okx: "okx",
  gate: "gate",
  bitget: "bitget",
  kucoin: "kucoinfutures",
};

/**
 * A spot ticker as a `SpotLeg`: the base normalised as perp bases are (bundle prefix split off,
 * then the asset map), the price per unit of that asset, the 24 h volume in USD where the quote is a
 * dollar stablecoin, the taker fee the market states or else its venue's schedule. The borrow rate
 * comes from another answer (`read-borrow-rates.ts`), so the caller passes it.
 */
export function spotLegOf(venue: SpotTickerVenue, row: SpotTickerRow, extra: { observedAt: string; borrow: BorrowRate | null }): SpotLeg {
  const exchange = SPOT_VENUE_EXCHANGE[venue];
  const { base: bare, multiplier } = normaliseBase(row.venueBase);
  const quote = row.venueQuote.toUpperCase();
  return spotLegSchema.parse({
    exchange,
    market: `${row.venueBase.toUpperCase()}/${quote}`,
    base: ASSET_MAP.assetOf(exchange, bare, "crypto"),
    quote,
    // A bundle (1000PEPE) is priced per bundle: per asset unit, as perp legs are compared.
    price: row.price / multiplier,
    volume24hUsd: USD_STABLECOIN_QUOTES.has(quote) ? row.quoteVolume24h : null,
    takerFee: row.takerFee ?? SPOT_TAKER_FEES[venue]?.taker ?? null,
    borrow: extra.borrow,
    observedAt: extra.observedAt,
  });
}
