import { VENUE_IDS, type VenueId } from "../types";
import { ccxtDepthSource, type CcxtDepthOptions } from "./ccxt-depth-source";
import type { VenueDepthSource } from "./market-depth";

/**
 * Each venue's source of live books and tiers, by the kind of connector it has. Every venue of
 * VENUE_IDS has a ccxt class; a venue connected over plain HTTP adds its own VenueDepthSource
 * here. A venue missing from the table is answered 503 VENUE_UNAVAILABLE saying it has no source
 * (lib/market/books/live-market-depth.ts), so the route never asks what kind of venue a leg is on.
 */
export function liveDepthSources(options: CcxtDepthOptions = {}): Partial<Record<VenueId, VenueDepthSource>> {
  return Object.fromEntries(VENUE_IDS.map((venue) => [venue, ccxtDepthSource(venue, options)]));
}
