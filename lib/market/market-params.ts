import { z } from "zod";
import { VENUE_IDS } from "./types";

/** The `exchange` query parameter of the market routes: one of the venues. */
export function exchangeParam() {
  return z.enum(VENUE_IDS, `Must be one of: ${VENUE_IDS.join(", ")}`);
}

/**
 * The `exchanges` query parameter: venues separated by commas (`binance,okx`), answered as a
 * sorted list without repeats. Every name must be a venue, so a typo is refused, not ignored.
 */
export function exchangeListParam() {
  return z
    .string()
    .transform((text, context) => {
      const names = text.split(",").map((name) => name.trim().toLowerCase());
      const unknown = names.filter((name) => !(VENUE_IDS as readonly string[]).includes(name));
      if (unknown.length > 0 || names.length === 0) {
        context.addIssue({ code: "custom", message: `Must be exchanges separated by commas, each one of: ${VENUE_IDS.join(", ")}` });
        return z.NEVER;
      }
      return [...new Set(names)].sort();
    });
}

/** The `symbol` query parameter of the market routes: a base asset, case-insensitive, answered upper-case. */
export function baseAssetParam() {
  return z
    .string()
    .regex(/^[A-Za-z0-9]{1,20}$/, "Must be a base asset such as BTC")
    .transform((s) => s.toUpperCase());
}
