import { HOURS_30D, HOURS_7D, type MarketSeries } from "./pair-persistence";
import type { MarketRef } from "./persistence-set";

/**
 * Spot held against a perpetual (a `spot_perp` carry trade) as a pair's first market: it pays and
 * earns no funding, so its series is zero every hour, observed and settled. The pair (HELD_SPOT,
 * perpetual) then measures the perpetual's own funding as the carry trade collects it: its median,
 * its run of positive hours and the share of hours it paid. Which venue holds the spot changes
 * none of that, so one pair per perpetual serves every spot venue. Not a venue id, so it never
 * meets a real market's key.
 */
export const HELD_SPOT: MarketRef = Object.freeze({ exchange: "spot", market: "held" });

/** HELD_SPOT's series: nothing earned or paid in any hour. */
export const HELD_SPOT_SERIES: MarketSeries = Object.freeze({ apr: new Float64Array(HOURS_30D), paid: new Float64Array(HOURS_7D) });
