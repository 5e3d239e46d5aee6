import type { VenueId } from "../types";
import { binanceAdapter } from "./binance";
import { bitgetAdapter } from "./bitget";
import { bitmartAdapter } from "./bitmart";
import { bitmexAdapter } from "./bitmex";
import { bybitAdapter } from "./bybit";
import { gateAdapter } from "./gate";
import { hyperliquidAdapter } from "./hyperliquid";
import { okxAdapter } from "./okx";
import type { HttpVenueAdapter, VenueAdapter } from "./venue-adapter";

// Each ccxt adapter is typed by its own ccxt class, and HTTP adapters (`kind: "http"`) by none; the
// table only needs to hand them out by id.
type AnyVenueAdapter =
  | typeof binanceAdapter
  | typeof bybitAdapter
  | typeof okxAdapter
  | typeof bitgetAdapter
  | typeof gateAdapter
  | typeof hyperliquidAdapter
  | typeof bitmartAdapter
  | typeof bitmexAdapter;

export const VENUE_ADAPTERS: Readonly<Record<VenueId, AnyVenueAdapter>> = {
  binance: binanceAdapter,
  bybit: bybitAdapter,
  okx: okxAdapter,
  bitget: bitgetAdapter,
  gate: gateAdapter,
  hyperliquid: hyperliquidAdapter,
  bitmart: bitmartAdapter,
  bitmex: bitmexAdapter,
};

export type { HttpVenueAdapter, VenueAdapter };
