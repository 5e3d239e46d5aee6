import type { IntervalSource, VenueId } from "../types";

/**
 * The venues of the sandbox market test keys see: the six the service started with. The sandbox
 * stays deterministic and small; live coverage (VENUE_IDS) grows without changing what a test key's
 * fixtures promise.
 */
export const SANDBOX_VENUE_IDS = ["binance", "bybit", "okx", "bitget", "gate", "hyperliquid"] as const satisfies readonly VenueId[];
export type SandboxVenueId = (typeof SANDBOX_VENUE_IDS)[number];

export interface VenueProfile {
  /**
   * Base-tier taker fee, as the live connectors report it (ccxt's market `taker` for linear swaps:
   * Binance 0.05 %, Bybit 0.06 %, OKX 0.05 %, Bitget 0.06 %, Gate 0.05 %, Hyperliquid 0.045 %).
   */
  takerFee: number;
  settle: "USDT" | "USDC";
  /**
   * The venue's own market id, e.g. `BTC-USDT-SWAP` on OKX; `index` is the market's position in
   * the venue's sandbox listing, which is what Hyperliquid uses as its id.
   */
  marketId(venueBase: string, index: number): string;
  /** Where the live connector reads this venue's interval from (lib/market/README.md table). */
  intervalSource(hours: number): IntervalSource;
  /** ccxt's spelling of a bundled base: Hyperliquid's `kPEPE` becomes `KPEPE` in the symbol. */
  symbolBase(venueBase: string): string;
  /**
   * Prefix the venue puts on the base of very cheap tokens (`1000PEPE`, `kPEPE`); `null` when it
   * lists them per token.
   */
  bundlePrefix: string | null;
  /**
   * Binance and Bybit add the clamped interest component, which pins the rate at exactly 0.01 %/8h
   * whenever the premium is within ±0.05 %; the others drift continuously around it.
   */
  pinsToInterestRate: boolean;
  /** Share of Binance's volume on a typical asset. */
  volumeShare: number;
  /** Binance has no all-symbol open-interest endpoint, so live Binance snapshots carry `null`. */
  reportsOpenInterest: boolean;
  /** OKX's funding payload carries no index price, so live OKX snapshots carry `null`. */
  reportsIndexPrice: boolean;
  /**
   * Whether the live connector reads a forecast of the rate (Binance's premium-index estimate,
   * Gate's indicative rate, Hyperliquid's predictedFundings); the sandbox's is the rate itself.
   */
  publishesForecast: boolean;
  /**
   * Whether the venue states the rate's cap and floor for a market with this interval source:
   * Binance only for the markets its fundingInfo lists (adjusted ones), Gate not in its contract rows.
   */
  statesRateBounds(source: IntervalSource): boolean;
}

const asIs = (base: string) => base;

export const VENUE_PROFILES: Readonly<Record<SandboxVenueId, VenueProfile>> = {
  binance: {
    takerFee: 0.0005,
    settle: "USDT",
    marketId: (base) => `${base}USDT`,
    // Binance's fundingInfo lists only adjusted symbols; an 8h one is read as the documented default.
    intervalSource: (hours) => (hours === 8 ? "venue-default" : "venue"),
    symbolBase: asIs,
    bundlePrefix: "1000",
    pinsToInterestRate: true,
    volumeShare: 1,
    reportsOpenInterest: false,
    reportsIndexPrice: true,
    publishesForecast: true,
    statesRateBounds: (source) => source !== "venue-default",
  },
  bybit: {
    takerFee: 0.0006,
    settle: "USDT",
    marketId: (base) => `${base}USDT`,
    intervalSource: () => "venue",
    symbolBase: asIs,
    bundlePrefix: "1000",
    pinsToInterestRate: true,
    volumeShare: 0.55,
    reportsOpenInterest: true,
    reportsIndexPrice: true,
    publishesForecast: false,
    statesRateBounds: () => true,
  },
  okx: {
    takerFee: 0.0005,
    settle: "USDT",
    marketId: (base) => `${base}-USDT-SWAP`,
    intervalSource: () => "schedule",
    symbolBase: asIs,
    bundlePrefix: null,
    pinsToInterestRate: false,
    volumeShare: 0.35,
    reportsOpenInterest: true,
    reportsIndexPrice: false,
    publishesForecast: false,
    statesRateBounds: () => true,
  },
  bitget: {
    takerFee: 0.0006,
    settle: "USDT",
    marketId: (base) => `${base}USDT`,
    intervalSource: () => "venue",
    symbolBase: asIs,
    bundlePrefix: null,
    pinsToInterestRate: false,
    volumeShare: 0.3,
    reportsOpenInterest: true,
    reportsIndexPrice: true,
    publishesForecast: false,
    statesRateBounds: () => true,
  },
  gate: {
    takerFee: 0.0005,
    settle: "USDT",
    marketId: (base) => `${base}_USDT`,
    intervalSource: () => "venue",
    symbolBase: asIs,
    bundlePrefix: null,
    pinsToInterestRate: false,
    volumeShare: 0.18,
    reportsOpenInterest: true,
    reportsIndexPrice: true,
    publishesForecast: true,
    statesRateBounds: () => false,
  },
  hyperliquid: {
    takerFee: 0.00045,
    settle: "USDC",
    marketId: (_base, index) => String(index),
    intervalSource: () => "venue",
    symbolBase: (base) => base.toUpperCase(),
    bundlePrefix: "k",
    pinsToInterestRate: false,
    volumeShare: 0.3,
    reportsOpenInterest: true,
    reportsIndexPrice: true,
    publishesForecast: true,
    statesRateBounds: () => true,
  },
};
