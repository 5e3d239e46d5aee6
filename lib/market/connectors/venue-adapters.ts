import type { VenueId } from "../types";
import { binanceAdapter } from "./binance";
import { bingxAdapter } from "./bingx";
import { bitgetAdapter } from "./bitget";
import { bybitAdapter } from "./bybit";
import { gateAdapter } from "./gate";
import { htxAdapter } from "./htx";
import { hyperliquidAdapter } from "./hyperliquid";
import { kucoinfuturesAdapter } from "./kucoinfutures";
import { mexcAdapter } from "./mexc";
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
  | typeof mexcAdapter
  | typeof kucoinfuturesAdapter
  | typeof bingxAdapter
  | typeof htxAdapter;

export const VENUE_ADAPTERS: Readonly<Record<VenueId, AnyVenueAdapter>> = {
  binance: binanceAdapter,
  bybit: bybitAdapter,
  okx: okxAdapter,
  bitget: bitgetAdapter,
  gate: gateAdapter,
  hyperliquid: hyperliquidAdapter,
  mexc: mexcAdapter,
  kucoinfutures: kucoinfuturesAdapter,
  bingx: bingxAdapter,
  htx: htxAdapter,
};

export type { VenueAdapter };
