import { CCXT_VENUE_IDS } from "../venues/connectors/venue-adapter";
import type { VenueId } from "../model/types";
import { ccxtDepthSource, type CcxtDepthOptions } from "./ccxt-depth-source";
import { ccxtSpotBookSource } from "./ccxt-spot-book-source";
import type { VenueDepthSource } from "./market-depth";

/**
 * Each venue's source of live books and tiers, by the kind of connector it has: ccxt's for the
 * venues with a ccxt class. The venues connected over plain HTTP (BitMart, BitMEX) have no book
 * source yet; one would be added here. A venue missing from the table is answered 503 VENUE_UNAVAILABLE saying it has no source
 * (lib/market/books/live-market-depth.ts), so the route never asks what kind of venue a leg is on.
 * The venues with spot markets read (ccxt-spot-book-source.ts) also give spot books.
 */
export function liveDepthSources(options: CcxtDepthOptions = {}): Partial<Record<VenueId, VenueDepthSource>> {
  return Object.fromEntries(
    CCXT_VENUE_IDS.map((venue) => {
      const spotBook = ccxtSpotBookSource(venue, options);
      return [venue, { ...ccxtDepthSource(venue, options), ...(spotBook ? { spotBook } : {}) }];
    }),
  );
}
