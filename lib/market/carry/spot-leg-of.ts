import { ASSET_MAP } from "../model/asset-map";
import { normaliseBase } from "../model/normalise-base";
import type { VenueId } from "../model/types";
import type { SpotTickerRow } from "./read-spot-tickers";
import { spotLegSchema, type BorrowRate, type SpotLeg } from "./spot-leg";

/**
 * Quotes counted as one US dollar when a spot volume is stated in USD. Only dollar stablecoins:
 * a BTC- or EUR-quoted volume would need a conversion rate, so it stays null rather than a guess.
 */
export const USD_STABLECOIN_QUOTES: ReadonlySet<string> = new Set(["USDT", "USDC", "FDUSD", "TUSD", "USDE", "BUSD", "DAI", "USD"]);

/**
 * A spot ticker as a `SpotLeg`: the base normalised as perp bases are (bundle prefix split off,
 * then the asset map), the price per unit of that asset, the 24 h volume in USD where the quote is a
 * dollar stablecoin. The fee and borrow rate come from their own sources (`spot-taker-fees.ts`,
 * `read-borrow-rates.ts`), so the caller passes them.
 */
export function spotLegOf(
  exchange: VenueId,
  row: SpotTickerRow,
  extra: { observedAt: string; takerFee: number | null; borrow: BorrowRate | null },
): SpotLeg {
  const { base: bare, multiplier } = normaliseBase(row.venueBase);
  const quote = row.venueQuote.toUpperCase();
  return spotLegSchema.parse({
    exchange,
    market: `${row.venueBase}/${quote}`,
    base: ASSET_MAP.assetOf(exchange, bare, "crypto"),
    quote,
    // A bundle (1000PEPE) is priced per bundle: per asset unit, as perp legs are compared.
    price: row.price / multiplier,
    volume24hUsd: USD_STABLECOIN_QUOTES.has(quote) ? row.quoteVolume24h : null,
    takerFee: extra.takerFee,
    borrow: extra.borrow,
    observedAt: extra.observedAt,
  });
}
