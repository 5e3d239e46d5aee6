import { AppError } from "@/lib/errors";
import type { MarketRef } from "../model/market-ref";
import { DeadlineExceededError } from "../venues/connectors/with-deadline";
import { FreshCache } from "./fresh-cache";
import { marginUnavailable, type MarginTable } from "./margin-table";
import type { MarketDepth, VenueDepthSources } from "./market-depth";
import type { OrderBook } from "./order-book";

/**
 * A few seconds: a quote is a price to act on, and books move by the second; but within that
 * time a burst of quotes of one market (a screener row, a bot polling) costs the venue one request.
 */
export const BOOK_FRESH_MS = 2_000;
/** How long a quote waits for a venue's book before answering 503: venues answer one in well under a second. */
export const BOOK_DEADLINE_MS = 3_000;
/** Margin tiers change a few times a year; an hour keeps a cold quote's second request rare. */
export const TIERS_FRESH_MS = 3_600_000;

export interface LiveMarketDepthOptions {
  bookFreshMs?: number;
  deadlineMs?: number;
  tiersFreshMs?: number;
  now?: () => number;
}

/** A book's kind is part of its key: a venue's spot and perpetual books never share an entry, whatever their symbols. */
type BookKind = "perp" | "spot";
const keyOf = (leg: MarketRef, kind: BookKind = "perp") => `${kind}\u0000${leg.exchange}\u0000${leg.market}`;
const legOf = (key: string) => {
  const [kind, exchange, market] = key.split("\u0000");
  return `${exchange} ${market}${kind === "spot" ? " spot" : ""}`;
};

/**
 * The live books and tiers of every venue that has a depth source, each market's cached for a
 * short while with one request in flight at a time (fresh-cache.ts), each venue's requests under
 * its own client's throttle (the source's). A venue that misses the deadline or fails is a 503
 * VENUE_UNAVAILABLE naming it; its tiers missing only cost that leg its liquidation price.
 */
export function liveMarketDepth(sources: VenueDepthSources, options: LiveMarketDepthOptions = {}): MarketDepth {
  const deadlineMs = options.deadlineMs ?? BOOK_DEADLINE_MS;
  const books = new FreshCache<OrderBook>({
    freshMs: options.bookFreshMs ?? BOOK_FRESH_MS,
    deadlineMs,
    label: (key) => `${legOf(key)} order book`,
    now: options.now,
  });
  const tiers = new FreshCache<MarginTable>({
    freshMs: options.tiersFreshMs ?? TIERS_FRESH_MS,
    deadlineMs,
    label: (key) => `${legOf(key)} margin tiers`,
    now: options.now,
  });
  const bookOf = async (leg: MarketRef, kind: BookKind, load: (() => Promise<OrderBook>) | undefined): Promise<OrderBook> => {
    const spot = kind === "spot" ? "spot " : "";
    const what = `${spot}order book`;
    if (!load) throw venueUnavailable(`No ${spot}order-book source is set up for ${leg.exchange}, so its ${spot}markets cannot be quoted`);
    try {
      return await books.get(keyOf(leg, kind), load);
    } catch (error) {
      throw venueUnavailable(
        error instanceof DeadlineExceededError
          ? `${leg.exchange} did not send the ${what} of ${leg.market} within ${deadlineMs} ms`
          : `${leg.exchange} answered the ${spot}order-book request for ${leg.market} with an error (${errorName(error)})`,
      );
    }
  };
  return {
    orderBook(leg) {
      const source = sources[leg.exchange];
      return bookOf(leg, "perp", source && (() => source.book(leg.market)));
    },
    spotOrderBook(leg) {
      const spotBook = sources[leg.exchange]?.spotBook;
      return bookOf(leg, "spot", spotBook && (() => spotBook(leg.market)));
    },
    async marginTable(leg) {
      const source = sources[leg.exchange];
      if (!source) return marginUnavailable("venue_unavailable", `No margin-tier source is set up for ${leg.exchange}`);
      try {
        return await tiers.get(keyOf(leg), () => source.margin(leg.market));
      } catch (error) {
        return marginUnavailable(
          "venue_unavailable",
          error instanceof DeadlineExceededError
            ? `${leg.exchange} did not send the margin tiers of ${leg.market} within ${deadlineMs} ms`
            : `${leg.exchange} answered the margin-tier request for ${leg.market} with an error (${errorName(error)})`,
        );
      }
    },
    quoteTime: (now) => now,
  };
}

function venueUnavailable(message: string): AppError {
  return new AppError("VENUE_UNAVAILABLE", message);
}

// The class of a venue's failure (ccxt's NetworkError, ExchangeNotAvailable, BadSymbol…) tells a
// caller what happened; its message may carry the venue's URL and payload, which are not theirs.
function errorName(error: unknown): string {
  return error instanceof Error ? error.name : "unknown failure";
}
