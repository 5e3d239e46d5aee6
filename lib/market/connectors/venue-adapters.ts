import type { VenueId } from "../types";
import { binanceAdapter } from "./binance";
import { bitgetAdapter } from "./bitget";
import { bybitAdapter } from "./bybit";
import { coinexAdapter } from "./coinex";
import { gateAdapter } from "./gate";
import { hyperliquidAdapter } from "./hyperliquid";
import { okxAdapter } from "./okx";
import { phemexAdapter } from "./phemex";
import type { VenueAdapter } from "./venue-adapter";
import { wooAdapter } from "./woo";

// Each adapter is typed by its own ccxt class; the table only needs to hand them out by id.
type AnyVenueAdapter =
  | typeof binanceAdapter
  | typeof bybitAdapter
  | typeof okxAdapter
  | typeof bitgetAdapter
  | typeof gateAdapter
  | typeof hyperliquidAdapter
  | typeof coinexAdapter
  | typeof phemexAdapter
  | typeof wooAdapter;

export const VENUE_ADAPTERS: Readonly<Record<VenueId, AnyVenueAdapter>> = {
  binance: binanceAdapter,
  bybit: bybitAdapter,
  okx: okxAdapter,
  bitget: bitgetAdapter,
  gate: gateAdapter,
  hyperliquid: hyperliquidAdapter,
  coinex: coinexAdapter,
  phemex: phemexAdapter,
  woo: wooAdapter,
};

export type { VenueAdapter };
