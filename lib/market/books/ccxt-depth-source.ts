import type { Exchange, MarketInterface } from "ccxt";
import { loadCcxt } from "../venues/connectors/load-ccxt";
import type { CcxtVenueId, FetchImplementation, VenueAdapter } from "../venues/connectors/venue-adapter";
import { VENUE_ADAPTERS } from "../venues/connectors/venue-adapters";
import { keptClient } from "../venues/connectors/venue-clients";
import {
  marginUnavailable,
  singleTierFromMaxLeverage,
  withLadderDeductions,
  withoutDeductions,
  withStatedDeductions,
  type ListedTier,
} from "./margin-table";
import { dydxMarginTable, hyperliquidMarginTable } from "./venue-margin-tables";
import { BOOK_LEVELS, type VenueDepthSource } from "./market-depth";
import { tradableLevels, type OrderBook } from "./order-book";

/**
 * How a venue states its maintenance margin through ccxt:
 * - `tiers`: `fetchMarketLeverageTiers` answers without an account, its bounds in USD (`quote`)
 *   or in contracts (OKX's `minSz`/`maxSz`); the venue deducts a ladder amount (Bybit's
 *   `mmDeduction`), states its own deduction beside each tier (Gate's `deduction`), or applies the
 *   tier's rate to the whole position; `maintenanceOn` is the value the venue takes the maintenance
 *   margin of (MarginTable's), Bybit's at entry;
 * - `hyperliquid`: the asset's margin table from the venue's `meta` (ccxt reads none of it);
 * - `dydx`: the margin fractions on the market's own entry in the market list;
 * - `not-published`: the tiers need a signed request, or are not read; the market list's maximum
 *   leverage still bounds a quote's leverage.
 */
type MarginAccess =
  | { kind: "tiers"; boundsIn: "quote" | "contracts"; deductions: "ladder" | "stated" | "none"; maintenanceOn?: "entry" }
  | { kind: "hyperliquid" }
  | { kind: "dydx" }
  | { kind: "not-published"; detail: string };

/** The venues whose tiers were checked; the others' are reported as not read (marginAccess). */
const MARGIN_ACCESS: Readonly<Partial<Record<CcxtVenueId, MarginAccess>>> = {
  binance: { kind: "not-published", detail: "Binance states its leverage brackets only to signed (account) requests" },
  bybit: { kind: "tiers", boundsIn: "quote", deductions: "ladder", maintenanceOn: "entry" },
  okx: { kind: "tiers", boundsIn: "contracts", deductions: "none" },
  bitget: { kind: "tiers", boundsIn: "quote", deductions: "none" },
  gate: { kind: "tiers", boundsIn: "quote", deductions: "stated" },
  hyperliquid: { kind: "hyperliquid" },
  dydx: { kind: "dydx" },
};

/**
 * Venues whose ccxt market carries no maximum leverage of the venue's own in `limits.leverage.max`:
 * ccxt fills HTX's from the spot-margin `leverage-ratio`, 1 when a contract has none.
 */
const NO_LEVERAGE_LIMIT: ReadonlySet<CcxtVenueId> = new Set(["htx"]);

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
      const { exchange, market: m } = await market(symbol);
      const maxLeverage = NO_LEVERAGE_LIMIT.has(venue) ? null : positiveOr(m.limits?.leverage?.max, null);
      if (access.kind === "not-published") return marginUnavailable("not_published", access.detail, maxLeverage);
      if (access.kind === "hyperliquid") {
        const info = (m.info ?? {}) as Record<string, unknown>;
        const name = String(info.name ?? m.baseId);
        // A builder-deployed (HIP-3) market is named `dex:COIN`, its margin tables in that dex's meta.
        const dex = name.includes(":") ? name.slice(0, name.indexOf(":")) : undefined;
        const answer = (await exchange.publicPostInfo({ type: "metaAndAssetCtxs", ...(dex ? { dex } : {}) })) as unknown[];
        const table = hyperliquidMarginTable(answer?.[0], name);
        if (table) return table;
        if (maxLeverage === null) return marginUnavailable("not_published", `${venue} states no margin table or maximum leverage for ${symbol}`);
        return singleTierFromMaxLeverage(maxLeverage);
      }
      if (access.kind === "dydx") {
        return (
          dydxMarginTable((m.info ?? {}) as Record<string, unknown>) ??
          marginUnavailable("not_published", `${venue} states no margin fractions for ${symbol}`, maxLeverage)
        );
      }
      const unit = access.boundsIn === "contracts" ? positiveOr(m.contractSize, 1) : 1;
      const listed = parsedTiers(await exchange.fetchMarketLeverageTiers(symbol), unit);
      return {
        available: true,
        source: "leverage_tiers",
        boundsIn: access.boundsIn === "contracts" ? "base" : "quote",
        tiers:
          access.deductions === "ladder"
            ? withLadderDeductions(listed.map((t) => t.tier))
            : access.deductions === "stated"
              ? withStatedDeductions(listed.map(({ tier, deduction }) => ({ ...tier, maintenanceAmount: deduction ?? 0 })))
              : withoutDeductions(listed.map((t) => t.tier)),
        ...(access.maintenanceOn ? { maintenanceOn: access.maintenanceOn } : {}),
      };
    },
  };
}

interface CcxtTier {
  minNotional?: number;
  maxNotional?: number;
  maintenanceMarginRate?: number;
  maxLeverage?: number;
  /** The venue's own row: Gate's carries its `deduction` (string). */
  info?: unknown;
}

/** ccxt's unified tiers, lowest first, bounds times `unit`; throws when none is usable, so the leg says the venue failed. */
export function listedTiers(tiers: readonly CcxtTier[], unit: number): ListedTier[] {
  return parsedTiers(tiers, unit).map((t) => t.tier);
}

/**
 * listedTiers, each with the deduction the venue states beside it (Gate's `info.deduction`), null
 * where it states none. Tiers are made contiguous: each from the previous one's cap, whatever floor
 * the venue lists (OKX's tier 2 of BTC-USDT-SWAP from 1,001 contracts after tier 1's 1,000).
 */
function parsedTiers(tiers: readonly CcxtTier[], unit: number): { tier: ListedTier; deduction: number | null }[] {
  const listed: { tier: ListedTier; deduction: number | null }[] = [];
  for (const tier of tiers) {
    const rate = tier.maintenanceMarginRate;
    if (typeof rate !== "number" || !(rate >= 0 && rate < 1)) continue;
    const floor = typeof tier.minNotional === "number" && Number.isFinite(tier.minNotional) ? tier.minNotional * unit : 0;
    const cap = typeof tier.maxNotional === "number" && Number.isFinite(tier.maxNotional) && tier.maxNotional > 0 ? tier.maxNotional * unit : null;
    const maxLeverage = typeof tier.maxLeverage === "number" && tier.maxLeverage > 0 ? tier.maxLeverage : null;
    const stated = Number((tier.info as { deduction?: unknown } | undefined)?.deduction ?? Number.NaN);
    listed.push({ tier: { floor, cap, maintenanceMarginRate: rate, maxLeverage }, deduction: Number.isFinite(stated) && stated >= 0 ? stated : null });
  }
  listed.sort((a, b) => a.tier.floor - b.tier.floor);
  if (listed.length === 0) throw new Error("no usable maintenance-margin tier");
  for (let i = 1; i < listed.length; i++) {
    const previousCap = listed[i - 1]!.tier.cap;
    if (previousCap !== null) listed[i]!.tier.floor = previousCap;
  }
  return listed;
}

function positiveOr<T extends number | null>(value: unknown, fallback: T): number | T {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : fallback;
}
