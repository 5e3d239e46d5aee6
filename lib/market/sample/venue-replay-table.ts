import type { ReplayRoute } from "../replay-fetch";
import type { VenueId } from "../types";
import { bitmartRoutes } from "./replays/bitmart";
import { bitmexRoutes } from "./replays/bitmex";
import { coinexRoutes } from "./replays/coinex";
import { phemexRoutes } from "./replays/phemex";
import { wooRoutes } from "./replays/woo";
import { dydxRoutes } from "./replays/dydx";
import { extendedRoutes } from "./replays/extended";
import { lighterRoutes } from "./replays/lighter";
import { paradexRoutes } from "./replays/paradex";
import { asterRoutes } from "./replays/aster";
import { backpackRoutes } from "./replays/backpack";
import { deribitRoutes } from "./replays/deribit";
import { grvtRoutes } from "./replays/grvt";
import { binance2025Routes, bitgetRoutes, bybitRoutes, gateRoutes, hyperliquidRoutes, okxRoutes } from "./venue-replays";
import { mexcRoutes } from "./replays/mexc";
import { kucoinfuturesRoutes } from "./replays/kucoinfutures";
import { bingxRoutes } from "./replays/bingx";
import { htxRoutes } from "./replays/htx";

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
  bitmart: bitmartRoutes,
  bitmex: bitmexRoutes,
  coinex: coinexRoutes,
  phemex: phemexRoutes,
  woo: wooRoutes,
  dydx: dydxRoutes,
  lighter: lighterRoutes,
  paradex: paradexRoutes,
  extended: extendedRoutes,
  mexc: mexcRoutes,
  kucoinfutures: kucoinfuturesRoutes,
  bingx: bingxRoutes,
  htx: htxRoutes,
  aster: asterRoutes,
  grvt: grvtRoutes,
  backpack: backpackRoutes,
  deribit: deribitRoutes,
};
