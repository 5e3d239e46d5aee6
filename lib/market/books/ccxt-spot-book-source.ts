import type { Exchange } from "ccxt";
import type { VenueId } from "../model/types";
import { clientConfig } from "../venues/connectors/ccxt-client";
import { loadCcxt, type CcxtClassId } from "../venues/connectors/load-ccxt";
import { keptSpotClient } from "../venues/connectors/venue-clients";
import type { CcxtDepthOptions } from "./ccxt-depth-source";
import { BOOK_LEVELS } from "./market-depth";
import { tradableLevels, type OrderBook } from "./order-book";

/**
 * The ccxt class of each venue whose spot books are read, by the venue id its perpetuals have:
 * KuCoin's spot market is its own class, its perpetuals `kucoinfutures`'. The venues whose spot
 * tickers and borrow rates the carry set reads (lib/market/carry).
 */
export const SPOT_BOOK_CLASSES: Readonly<Partial<Record<VenueId, CcxtClassId>>> = {
  binance: "binance",
  bybit: "bybit",
  okx: "okx",
  gate: "gate",
  bitget: "bitget",
  kucoinfutures: "kucoin",
};

/** KuCoin serves its spot book only 20 or 100 levels deep (ccxt refuses other limits): 100 are asked, BOOK_LEVELS kept. */
const BOOK_LIMIT: Readonly<Partial<Record<CcxtClassId, number>>> = { kucoin: 100 };

/**
 * A venue's spot order books through ccxt's `fetchOrderBook` on a spot symbol (`BTC/USDT`), on a
 * client that loads only the venue's spot markets. Spot books count the coin (contract size 1).
 * Rejects when the venue fails; deadlines and reuse are the caller's (live-market-depth.ts).
 * Undefined for a venue without spot books here.
 */
export function ccxtSpotBookSource(venue: VenueId, options: CcxtDepthOptions = {}): ((symbol: string) => Promise<OrderBook>) | undefined {
  const id = SPOT_BOOK_CLASSES[venue];
  if (!id) return undefined;
  let own: Exchange | undefined;
  const client = async (): Promise<Exchange> => {
    const lib = await loadCcxt(id);
    const create = (config: Record<string, unknown>) =>
      new lib[id](clientConfig(config, { fetchMarkets: { types: ["spot"], fetchTickersFees: false } })) as Exchange;
    if (!options.fetchImplementation) return keptSpotClient(venue, () => create({ enableRateLimit: true }));
    own ??= create({ fetchImplementation: options.fetchImplementation, enableRateLimit: options.enableRateLimit ?? true });
    return own;
  };
  return async (symbol) => {
    const exchange = await client();
    await exchange.loadMarkets();
    const book = await exchange.fetchOrderBook(symbol, BOOK_LIMIT[id] ?? BOOK_LEVELS);
    return {
      bids: tradableLevels(book.bids as [unknown, unknown][], "bids").slice(0, BOOK_LEVELS),
      asks: tradableLevels(book.asks as [unknown, unknown][], "asks").slice(0, BOOK_LEVELS),
      contractSize: 1,
      timestamp: typeof book.timestamp === "number" && Number.isFinite(book.timestamp) ? book.timestamp : Date.now(),
      source: "venue",
    } satisfies OrderBook;
  };
}
