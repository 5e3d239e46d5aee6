import type { VenueId } from "../types";
import { binanceAdapter } from "./binance";
import { bitgetAdapter } from "./bitget";
import { bybitAdapter } from "./bybit";
import { gateAdapter } from "./gate";
import { hyperliquidAdapter } from "./hyperliquid";
import { okxAdapter } from "./okx";
import type { VenueAdapter } from "./venue-adapter";

// Each adapter is typed by its own ccxt class; the table only needs to hand them out by id.
type AnyVenueAdapter =
  | typeof binanceAdapter
  | typeof bybitAdapter
  | typeof okxAdapter
  | typeof bitgetAdapter
  | typeof gateAdapter
  | typeof hyperliquidAdapter;

export const VENUE_ADAPTERS: Readonly<Record<VenueId, AnyVenueAdapter>> = {
  binance: binanceAdapter,
  bybit: bybitAdapter,
  okx: okxAdapter,
  bitget: bitgetAdapter,
  gate: gateAdapter,
  hyperliquid: hyperliquidAdapter,
};

export type { VenueAdapter };
