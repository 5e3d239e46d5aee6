import type { ReplayRoute } from "../replay-fetch";
import {
  BINANCE_2025_TIME,
  BITGET_TIME,
  BYBIT_TIME,
  OKX_TS,
  binance2025Routes,
  bitgetRoutes,
  bybitRoutes,
  gateRoutes,
  hyperliquidRoutes,
  okxRoutes,
} from "./venue-replays";
import { VENUE_IDS, type VenueId } from "../types";

/**
 * The responses the offline sample replays, per venue. Binance, OKX and Hyperliquid are built on
 * real recordings; Bybit, Bitget and Gate are synthetic in the venues' documented formats (no
 * multi-row capture of them exists; see lib/market/README.md "Offline first run").
 */
export function sampleVenueResponses(): Record<VenueId, ReplayRoute[]> {
  return {
    binance: binance2025Routes(),
    bybit: bybitRoutes(),
    okx: okxRoutes(),
    bitget: bitgetRoutes(),
    gate: gateRoutes(),
    hyperliquid: hyperliquidRoutes(),
  };
}

/**
 * The moment each venue's sample responses are of, epoch ms. The recordings are from three
 * different days, and a price spread between two of them would measure how the market moved in
 * between, so the sample replays each venue at its own moment and the usual rule
 * (lib/market/price-spread.ts) leaves cross-day pairs without a spread.
 *
 * Where a payload states a time, the moment is that time (a unit test holds the two together);
 * for Gate and Hyperliquid, whose payloads have none, it is the replay's clock.
 */
export const SAMPLE_RECORDED_AT: Record<VenueId, number> = {
  // The real premiumIndex's `time`: 2025-06-17 08:38:08Z.
  binance: BINANCE_2025_TIME,
  // The synthetic tickers' `ts`: 2026-08-01 07:40Z, in the hour of the one real Bitget row.
  bitget: BITGET_TIME,
  // Hyperliquid's real recording has no time, but its predictedFundings names 14:00Z 2026-09-27 as
  // the next hourly settlement, so it was taken in the hour before. The synthetic OKX, Bybit and
  // Gate rows were written for that moment (Bybit's rates are the ones Hyperliquid relays, the BTC
  // marks lie within 2 bps of Hyperliquid's) and are dated 13:50Z; Hyperliquid is dated with them.
  hyperliquid: OKX_TS,
  okx: OKX_TS,
  bybit: BYBIT_TIME,
  gate: OKX_TS,
};

/** What lib/market/sample/venue-responses.json holds: each venue's moment and responses. */
export interface SampleMarketFile {
  /** ISO 8601 UTC, per venue: see {@link SAMPLE_RECORDED_AT}. */
  recordedAt: Record<VenueId, string>;
  responses: Record<VenueId, ReplayRoute[]>;
}

export function sampleMarketFile(): SampleMarketFile {
  const recordedAt = Object.fromEntries(
    VENUE_IDS.map((venue) => [venue, new Date(SAMPLE_RECORDED_AT[venue]).toISOString()]),
  ) as Record<VenueId, string>;
  return { recordedAt, responses: sampleVenueResponses() };
}
