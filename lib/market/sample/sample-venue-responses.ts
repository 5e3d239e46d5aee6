import type { ReplayRoute } from "../replay-fetch";
import {
  binance2025Routes,
  bitgetRoutes,
  bybitRoutes,
  gateRoutes,
  hyperliquidRoutes,
  okxRoutes,
} from "./venue-replays";
import type { VenueId } from "../types";

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
