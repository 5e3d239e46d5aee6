import type { Exchange, MarketInterface } from "ccxt";
import { loadCcxt } from "../connectors/load-ccxt";
import type { CcxtVenueId, FetchImplementation, VenueAdapter } from "../connectors/venue-adapter";
import { VENUE_ADAPTERS } from "../connectors/venue-adapters";
import { keptClient } from "../connectors/venue-clients";
import {
  marginUnavailable,
  singleTierFromMaxLeverage,
  withLadderDeductions,
  withoutDeductions,
  type ListedTier,
} from "./margin-table";
import { BOOK_LEVELS, type VenueDepthSource } from "./market-depth";
import { tradableLevels, type OrderBook } from "./order-book";

/**
 * How a venue states its maintenance margin through ccxt:
 * - `tiers`: `fetchMarketLeverageTiers` answers without an account, its bounds in USD (`quote`)
 *   or in contracts (OKX's `minSz`/`maxSz`), and the venue deducts a ladder amount (Bybit's
 *   `mmDeduction`) or applies the tier's rate to the whole position;
 * - `max-leverage`: only the market's maximum leverage, maintenance being half the initial margin
 *   at it (Hyperliquid; ccxt does not read its margin tables);
 * - `not-published`: the tiers need a signed request.
 */
type MarginAccess =
  | { kind: "tiers"; boundsIn: "quote" | "contracts"; deductions: "ladder" | "none" }
  | { kind: "max-leverage" }
  | { kind: "not-published"; detail: string };

/** The venues whose tiers were checked; the others' are reported as not read (marginAccess). */
const MARGIN_ACCESS: Readonly<Partial<Record<CcxtVenueId, MarginAccess>>> = {
  binance: { kind: "not-published", detail: "Binance states its leverage brackets only to signed (account) requests" },
  bybit: { kind: "tiers", boundsIn: "quote", deductions: "ladder" },
  okx: { kind: "tiers", boundsIn: "contracts", deductions: "none" },
  bitget: { kind: "tiers", boundsIn: "quote", deductions: "none" },
  gate: { kind: "tiers", boundsIn: "quote", deductions: "none" },
  hyperliquid: { kind: "max-leverage" },
};

function marginAccess(venue: CcxtVenueId): MarginAccess {
  return MARGIN_ACCESS[venue] ?? { kind: "not-published", detail: `${venue}'s maintenance-margin tiers are not read by this service` };
}

export interface CcxtDepthOptions {
  /**
   * Replaces the network (tests and the benchmark replay recorded answers through it); the source
   * then has a client of its own instead of the venue's kept one.
   */
  fetchImplementation?: FetchImplementation;
  /** ccxt's throttle on that client of its own (default on, as on the kept one). */
  enableRateLimit?: boolean;
}

/**
 * Books and tiers of a venue ccxt has a class for, through the venue's kept client (the one the
 * ingestion rounds use, venue-clients.ts), so every request to the venue from this process shares
 * one throttle. ccxt is imported on the first request, like the rounds do it.
 */
export function ccxtDepthSource(venue: CcxtVenueId, options: CcxtDepthOptions = {}): VenueDepthSource {
  const adapter = VENUE_ADAPTERS[venue] as unknown as VenueAdapter<Exchange>;
  let own: Exchange | undefined;
  const client = async (): Promise<Exchange> => {
    const lib = await loadCcxt(venue);
    if (!options.fetchImplementation) return keptClient(adapter, lib);
    own ??= adapter.create(lib, { fetchImplementation: options.fetchImplementation, enableRateLimit: options.enableRateLimit ?? true });
    return own;
  };
  const market = async (symbol: string): Promise<{ exchange: Exchange; market: MarketInterface }> => {
    const exchange = await client();
    // Loaded once per client (ccxt keeps them, and the rounds reload the kept client's each round).
    await exchange.loadMarkets();
    return { exchange, market: exchange.market(symbol) };
  };
  return {
    async book(symbol) {
      const { exchange, market: m } = await market(symbol);
      const book = await exchange.fetchOrderBook(symbol, BOOK_LEVELS);
      return {
        bids: tradableLevels(book.bids as [unknown, unknown][], "bids"),
        asks: tradableLevels(book.asks as [unknown, unknown][], "asks"),
        contractSize: positiveOr(m.contractSize, 1),
        timestamp: typeof book.timestamp === "number" && Number.isFinite(book.timestamp) ? book.timestamp : Date.now(),
        source: "venue",
      } satisfies OrderBook;
    },
    async margin(symbol) {
      const access = marginAccess(venue);
      if (access.kind === "not-published") return marginUnavailable("not_published", access.detail);
      const { exchange, market: m } = await market(symbol);
      if (access.kind === "max-leverage") {
        const max = m.limits?.leverage?.max;
        if (typeof max !== "number" || !(max > 0)) return marginUnavailable("not_published", `${venue} states no maximum leverage for ${symbol}`);
        return singleTierFromMaxLeverage(max);
      }
      const unit = access.boundsIn === "contracts" ? positiveOr(m.contractSize, 1) : 1;
      const listed = listedTiers(await exchange.fetchMarketLeverageTiers(symbol), unit);
      return {
        available: true,
        source: "leverage_tiers",
        boundsIn: access.boundsIn === "contracts" ? "base" : "quote",
        tiers: access.deductions === "ladder" ? withLadderDeductions(listed) : withoutDeductions(listed),
      };
    },
  };
}

interface CcxtTier {
  minNotional?: number;
  maxNotional?: number;
  maintenanceMarginRate?: number;
  maxLeverage?: number;
}

/** ccxt's unified tiers, lowest first, bounds times `unit`; throws when none is usable, so the leg says the venue failed. */
export function listedTiers(tiers: readonly CcxtTier[], unit: number): ListedTier[] {
  const listed: ListedTier[] = [];
  for (const tier of tiers) {
    const rate = tier.maintenanceMarginRate;
    if (typeof rate !== "number" || !(rate >= 0 && rate < 1)) continue;
    const previousCap = listed.at(-1)?.cap ?? 0;
    const floor = typeof tier.minNotional === "number" && Number.isFinite(tier.minNotional) ? tier.minNotional * unit : previousCap;
    const cap = typeof tier.maxNotional === "number" && Number.isFinite(tier.maxNotional) && tier.maxNotional > 0 ? tier.maxNotional * unit : null;
    const maxLeverage = typeof tier.maxLeverage === "number" && tier.maxLeverage > 0 ? tier.maxLeverage : null;
    listed.push({ floor, cap, maintenanceMarginRate: rate, maxLeverage });
  }
  listed.sort((a, b) => a.floor - b.floor);
  if (listed.length === 0) throw new Error("no usable maintenance-margin tier");
  return listed;
}

function positiveOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : fallback;
}
