import type { SandboxVenueId } from "./venue-profiles";

/**
 * Where the sandbox always puts its edge cases, whatever the seed and the minute. Client authors
 * can assert on these names (README.md lists them); the sandbox tests check every one.
 */
export const SANDBOX_EDGE_CASES = {
  /**
   * Always `status: "stale"`; its snapshots are its last good refresh, 10–39 minutes old, and are
   * paired like the others, so the API serves its legs flagged `stale: true`.
   */
  staleVenue: "gate",
  /**
   * Negative funding on every venue it is listed on, most negative on `venue`, so every pair with
   * `venue` in it is long `venue` (ids `SBXNEG-bybit-…`) at well over 40 % APR.
   */
  negativeFunding: { base: "SBXNEG", venue: "bybit", venues: ["binance", "bybit", "okx", "hyperliquid"] },
  /** Listed on one venue only, so it never appears in an opportunity. */
  singleVenue: { base: "SBXSOLO", venue: "okx" },
  /** Settles hourly on `hourlyVenues` (and on Hyperliquid, which is always hourly) and every 8h on OKX. */
  hourlyFunding: { base: "SBXHOUR", hourlyVenues: ["binance", "bybit"], venues: ["binance", "bybit", "okx", "hyperliquid"] },
  /**
   * Changes its funding interval on `venue` at every UTC midnight: every `oddDays` hours on odd
   * days since 1970-01-01, every `evenDays` hours on even ones (as Binance moves a capped contract
   * to 1h and back to 4h): at its cap on the hourly days. So GET /v1/funding-intervals,
   * `interval_changed_at` and `at_cap` have something to show in test mode. Steady 8h elsewhere.
   */
  intervalShift: { base: "SBXSHIFT", venue: "binance", hours: { evenDays: 4, oddDays: 1 }, venues: ["binance", "bybit", "okx"] },
  /** Quoted per 1000 tokens on Binance and Bybit (`1000PEPE`) and Hyperliquid (`kPEPE`), per token elsewhere. */
  bundled: { base: "PEPE", multiplier: 1000, venueBases: { binance: "1000PEPE", bybit: "1000PEPE", hyperliquid: "kPEPE" } },
} as const satisfies {
  staleVenue: SandboxVenueId;
  negativeFunding: { base: string; venue: SandboxVenueId; venues: readonly SandboxVenueId[] };
  singleVenue: { base: string; venue: SandboxVenueId };
  hourlyFunding: { base: string; hourlyVenues: readonly SandboxVenueId[]; venues: readonly SandboxVenueId[] };
  intervalShift: { base: string; venue: SandboxVenueId; hours: { evenDays: number; oddDays: number }; venues: readonly SandboxVenueId[] };
  bundled: { base: string; multiplier: number; venueBases: Partial<Record<SandboxVenueId, string>> };
};
