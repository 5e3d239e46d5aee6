import type { VenueId } from "../types";
import { binanceAdapter } from "./binance";
import { bitgetAdapter } from "./bitget";
import { bybitAdapter } from "./bybit";
import { dydxAdapter } from "./dydx";
import { extendedAdapter } from "./extended";
import { gateAdapter } from "./gate";
import { hyperliquidAdapter } from "./hyperliquid";
import { lighterAdapter } from "./lighter";
import { okxAdapter } from "./okx";
import { paradexAdapter } from "./paradex";
import type { VenueAdapter } from "./venue-adapter";

// Each adapter is typed by its own ccxt class; the table only needs to hand them out by id.
type AnyVenueAdapter =
  | typeof binanceAdapter
  | typeof bybitAdapter
  | typeof okxAdapter
  | typeof bitgetAdapter
  | typeof gateAdapter
  | typeof hyperliquidAdapter
  | typeof dydxAdapter
  | typeof lighterAdapter
  | typeof paradexAdapter
  | typeof extendedAdapter;

export const VENUE_ADAPTERS: Readonly<Record<VenueId, AnyVenueAdapter>> = {
  binance: binanceAdapter,
  bybit: bybitAdapter,
  okx: okxAdapter,
  bitget: bitgetAdapter,
  gate: gateAdapter,
  hyperliquid: hyperliquidAdapter,
  dydx: dydxAdapter,
  lighter: lighterAdapter,
  paradex: paradexAdapter,
  extended: extendedAdapter,
};

export type { VenueAdapter };
