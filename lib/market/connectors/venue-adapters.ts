import type { VenueId } from "../types";
import { asterAdapter } from "./aster";
import { backpackAdapter } from "./backpack";
import { binanceAdapter } from "./binance";
import { bitgetAdapter } from "./bitget";
import { bybitAdapter } from "./bybit";
import { deribitAdapter } from "./deribit";
import { gateAdapter } from "./gate";
import { grvtAdapter } from "./grvt";
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
  | typeof hyperliquidAdapter
  | typeof asterAdapter
  | typeof grvtAdapter
  | typeof backpackAdapter
  | typeof deribitAdapter;

export const VENUE_ADAPTERS: Readonly<Record<VenueId, AnyVenueAdapter>> = {
  binance: binanceAdapter,
  bybit: bybitAdapter,
  okx: okxAdapter,
  bitget: bitgetAdapter,
  gate: gateAdapter,
  hyperliquid: hyperliquidAdapter,
  aster: asterAdapter,
  grvt: grvtAdapter,
  backpack: backpackAdapter,
  deribit: deribitAdapter,
};

export type { VenueAdapter };
