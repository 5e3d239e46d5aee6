import type { MarketRef } from "../model/market-ref";
import type { MarginTable } from "./margin-table";
import type { OrderBook } from "./order-book";

/** Levels asked of a venue per side: a few dozen, what a quote at a desk's size walks through. */
export const BOOK_LEVELS = 50;

/**
 * Where one venue's books and margin tiers come from, whatever kind of connector the venue has:
 * ccxt (ccxt-depth-source.ts) or plain HTTP. Each method rejects when the venue fails; deadlines
 * and caching are the caller's (market-depth's `liveMarketDepth`).
 */
export interface VenueDepthSource {
  /** The market's order book, BOOK_LEVELS a side where the venue gives that many. */
  book(market: string): Promise<OrderBook>;
  /** The market's maintenance-margin tiers, or why the venue has none to give. */
  margin(market: string): Promise<MarginTable>;
  /** A spot market's order book (`market` a ccxt spot symbol, e.g. BTC/USDT); absent where the venue's spot books are not read. */
  spotBook?(market: string): Promise<OrderBook>;
}

/** Each venue's depth source, by venue id; a venue without one cannot be quoted (503, saying so). */
export type VenueDepthSources = Readonly<Partial<Record<string, VenueDepthSource>>>;

/**
 * What a quote reads of the market besides the opportunity: each leg's order book and margin
 * tiers. Part of the Market port, so the key's mode decides where they come from: the venues (or
 * the offline sample's recordings) for live keys, the generated sandbox for test keys.
 */
export interface MarketDepth {
  /**
   * The leg's order book, no older than the few seconds a book is reused. Throws AppError
   * VENUE_UNAVAILABLE (503) when the venue does not answer in time or fails; never an older book.
   */
  orderBook(leg: MarketRef): Promise<OrderBook>;
  /**
   * The order book of a spot market of the venue (`leg.market` a ccxt spot symbol, e.g. BTC/USDT),
   * what a carry trade's spot leg walks; as `orderBook`, and never mistaken for a perpetual's book.
   */
  spotOrderBook(leg: MarketRef): Promise<OrderBook>;
  /** The leg's maintenance-margin tiers, or why there are none; never throws. */
  marginTable(leg: MarketRef): Promise<MarginTable>;
  /**
   * The moment a quote asked for at `now` is of: `now` where books are read live, the sandbox
   * minute's start for test keys, so that a test key's quote is the same all minute.
   */
  quoteTime(now: Date): Date;
}
