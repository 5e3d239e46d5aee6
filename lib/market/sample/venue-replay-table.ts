import type { ReplayRoute } from "../replay-fetch";
import type { VenueId } from "../types";
import { asterRoutes } from "./replays/aster";
import { backpackRoutes } from "./replays/backpack";
import { deribitRoutes } from "./replays/deribit";
import { grvtRoutes } from "./replays/grvt";
import { binance2025Routes, bitgetRoutes, bybitRoutes, gateRoutes, hyperliquidRoutes, okxRoutes } from "./venue-replays";

/**
 * Every venue's healthy answers, replayed in place of the network: what the failure-isolation
 * tests break one request of, and what the test harnesses (integration rounds, the fault runner)
 * serve. The first six venues' route sets live in venue-replays.ts, each later venue's in
 * replays/<venue>.ts, which also says what is real and what is a documented example.
 */
export const VENUE_REPLAYS: Readonly<Record<VenueId, () => ReplayRoute[]>> = {
  binance: binance2025Routes,
  bybit: bybitRoutes,
  okx: okxRoutes,
  bitget: bitgetRoutes,
  gate: gateRoutes,
  hyperliquid: hyperliquidRoutes,
  aster: asterRoutes,
  grvt: grvtRoutes,
  backpack: backpackRoutes,
  deribit: deribitRoutes,
};
