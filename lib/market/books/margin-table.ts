import { roundTo } from "@/lib/round";

/**
 * One maintenance-margin tier: the margin a position of this size must keep is
 * `size × maintenanceMarginRate − maintenanceAmount`, and it may be opened at most at `maxLeverage`.
 * `floor` and `cap` bound the position's size in the table's `boundsIn` unit. The tiers of a table
 * are contiguous whatever floors a venue lists: each covers (the previous tier's cap, its cap]
 * (OKX lists tier 2 of BTC-USDT-SWAP from 1,001 contracts, its tier 1 to 1,000; 1,000.5 is tier 2).
 */
export interface MarginTier {
  floor: number;
  /** null: no upper bound. */
  cap: number | null;
  maintenanceMarginRate: number;
  maxLeverage: number | null;
  /**
   * What the venue deducts so the margin is continuous across tiers (Binance's `cum`, Bybit's
   * `mmDeduction`, Gate's `deduction`); 0 where the tier's rate applies to the whole position (OKX, Bitget).
   */
  maintenanceAmount: number;
}

/** Why a leg has no liquidation price. */
export const MARGIN_UNAVAILABLE_REASONS = [
  // The venue states its tiers only to signed (account) requests, e.g. Binance's leverage brackets.
  "not_published",
  // The offline sample carries no recording of the venue's tiers for this market.
  "not_recorded",
  // The venue did not answer the tier request in time, or answered with an error.
  "venue_unavailable",
] as const;
export type MarginUnavailableReason = (typeof MARGIN_UNAVAILABLE_REASONS)[number];

/**
 * A market's maintenance-margin tiers, lowest first, or why there are none. `source` says which
 * of the venue's data they are: its tier table (ccxt leverage tiers), or its market limits alone
 * (one tier from the maximum leverage, where the venue states its maintenance margin as a
 * fraction of it, as Hyperliquid does: half the initial margin at maximum leverage).
 */
export type MarginTable =
  | {
      available: true;
      source: "leverage_tiers" | "market_limits";
      /** `quote`: tiers bound the position's value in USD; `base`: its size in venue units. */
      boundsIn: "quote" | "base";
      tiers: readonly MarginTier[];
      /**
       * The position value the venue takes the maintenance margin of: `mark` (the default) at the
       * mark price, in the tier holding the position's value there (Binance, OKX, Gate, Hyperliquid,
       * dYdX); `entry` at the entry price, in the tier of the value at entry (Bybit).
       * lib/quote/liquidation.ts has each formula.
       */
      maintenanceOn?: "mark" | "entry";
    }
  | {
      available: false;
      reason: MarginUnavailableReason;
      detail: string;
      /**
       * The market's maximum leverage from the venue's market list, where it states one: without
       * tiers, the bound a quote's leverage is held to.
       */
      maxLeverage?: number | null;
    };

export function marginUnavailable(reason: MarginUnavailableReason, detail: string, maxLeverage: number | null = null): MarginTable {
  return { available: false, reason, detail, maxLeverage };
}

/** A tier as a venue lists it, before deductions: its floor, cap, rate and maximum leverage. */
export interface ListedTier {
  floor: number;
  cap: number | null;
  maintenanceMarginRate: number;
  maxLeverage: number | null;
}

/**
 * Tiers whose deductions keep the margin continuous at each floor, as Binance, Bybit and
 * Hyperliquid compute them: amount_i = amount_{i−1} + floor_i × (rate_i − rate_{i−1}). Binance's
 * BTCUSDT brackets (0.4 % to 50k, 0.5 % to 600k, 0.65 % to 3M) give 0, 50 and 950, its own `cum`.
 */
export function withLadderDeductions(tiers: readonly ListedTier[]): MarginTier[] {
  let amount = 0;
  let previousRate: number | undefined;
  return tiers.map((tier) => {
    // Rounded as the venues state theirs (decimal USD), so 0.0065 − 0.005 does not leave binary noise.
    if (previousRate !== undefined) amount = roundTo(amount + tier.floor * (tier.maintenanceMarginRate - previousRate), 8);
    previousRate = tier.maintenanceMarginRate;
    return { ...tier, maintenanceAmount: amount };
  });
}

/** Tiers whose rate applies to the whole position (OKX, Bitget): nothing deducted. */
export function withoutDeductions(tiers: readonly ListedTier[]): MarginTier[] {
  return tiers.map((tier) => ({ ...tier, maintenanceAmount: 0 }));
}

/**
 * The one tier of a venue that states only a maximum leverage and keeps half the initial margin
 * at that leverage as maintenance (Hyperliquid's documented rule): rate 1 / (2 × max leverage).
 */
export function singleTierFromMaxLeverage(maxLeverage: number): MarginTable {
  return {
    available: true,
    source: "market_limits",
    boundsIn: "quote",
    tiers: [{ floor: 0, cap: null, maintenanceMarginRate: 1 / (2 * maxLeverage), maxLeverage, maintenanceAmount: 0 }],
  };
}

/** Tiers with the deduction the venue states beside each (Gate's `deduction`), taken as stated. */
export function withStatedDeductions(tiers: readonly (ListedTier & { maintenanceAmount: number })[]): MarginTier[] {
  return tiers.map((tier) => ({ ...tier }));
}
