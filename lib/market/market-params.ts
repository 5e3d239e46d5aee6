import { z } from "zod";
import { VENUE_IDS } from "./types";

/** The `exchange` query parameter of the market routes: one of the venues. */
export function exchangeParam() {
  return z.enum(VENUE_IDS, `Must be one of: ${VENUE_IDS.join(", ")}`);
}

/** The `symbol` query parameter of the market routes: a base asset, case-insensitive, answered upper-case. */
export function baseAssetParam() {
  return z
    .string()
    .regex(/^[A-Za-z0-9]{1,20}$/, "Must be a base asset such as BTC")
    .transform((s) => s.toUpperCase());
}
