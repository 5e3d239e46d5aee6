import { z } from "zod";
import { VENUE_IDS } from "./types";

/** The `exchange` query parameter of the market routes: one of the venues. */
export function exchangeParam() {
  return z.enum(VENUE_IDS, `Must be one of: ${VENUE_IDS.join(", ")}`);
}

/**
 * The `exchanges` query parameter: venues separated by commas (`binance,okx`), answered as a
 * sorted list without repeats. A pattern rather than a refinement, so the OpenAPI document states
 * exactly which lists are accepted (a typo is refused, not ignored).
 */
export function exchangeListParam() {
  const venue = `(${VENUE_IDS.join("|")})`;
  return z
    .string()
    .regex(new RegExp(`^${venue}(,${venue})*$`), `Must be exchanges separated by commas, each one of: ${VENUE_IDS.join(", ")}`)
    .meta({ examples: ["binance,okx,hyperliquid"] })
    .transform((text) => [...new Set(text.split(","))].sort());
}

/** The `symbol` query parameter of the market routes: a base asset, case-insensitive, answered upper-case. */
export function baseAssetParam() {
  return z
    .string()
    .regex(/^[A-Za-z0-9]{1,20}$/, "Must be a base asset such as BTC")
    .transform((s) => s.toUpperCase());
}
