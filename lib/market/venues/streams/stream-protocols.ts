import type { VenueId } from "../../model/types";
import { asterStream } from "./aster";
import { binanceStream } from "./binance";
import { bitgetStream } from "./bitget";
import { bybitStream } from "./bybit";
import { dydxStream } from "./dydx";
import { gateStream } from "./gate";
import { hyperliquidStream } from "./hyperliquid";
import { lighterStream } from "./lighter";
import { okxStream } from "./okx";
import type { VenueStreamProtocol } from "./stream-protocol";

/** The venues whose public WebSocket carries funding or mark prices, by venue (README.md beside this file). */
export const STREAM_PROTOCOLS: Partial<Record<VenueId, VenueStreamProtocol>> = {
  binance: binanceStream,
  aster: asterStream,
  bybit: bybitStream,
  okx: okxStream,
  bitget: bitgetStream,
  gate: gateStream,
  hyperliquid: hyperliquidStream,
  dydx: dydxStream,
  lighter: lighterStream,
};
