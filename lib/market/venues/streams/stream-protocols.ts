import type { VenueId } from "../../model/types";
import { asterStream } from "./aster";
import { backpackStream } from "./backpack";
import { binanceStream } from "./binance";
import { bitgetStream } from "./bitget";
import { bitmexStream } from "./bitmex";
import { bybitStream } from "./bybit";
import { coinexStream } from "./coinex";
import { deribitStream } from "./deribit";
import { dydxStream } from "./dydx";
import { gateStream } from "./gate";
import { grvtStream } from "./grvt";
import { htxStream } from "./htx";
import { hyperliquidStream } from "./hyperliquid";
import { hyperliquidHip3Stream } from "./hyperliquid-hip3";
import { kucoinfuturesStream } from "./kucoinfutures";
import { lighterStream } from "./lighter";
import { mexcStream } from "./mexc";
import { okxStream } from "./okx";
import { paradexStream } from "./paradex";
import { phemexStream } from "./phemex";
import type { VenueStreamProtocol } from "./stream-protocol";
import { wooStream } from "./woo";

/**
 * The venues whose public WebSocket carries funding or mark prices, by venue (README.md beside this
 * file); a venue absent here is polled.
 */
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
  mexc: mexcStream,
  kucoinfutures: kucoinfuturesStream,
  htx: htxStream,
  deribit: deribitStream,
  coinex: coinexStream,
  phemex: phemexStream,
  woo: wooStream,
  grvt: grvtStream,
  backpack: backpackStream,
  bitmex: bitmexStream,
  paradex: paradexStream,
  "hyperliquid:xyz": hyperliquidHip3Stream("hyperliquid:xyz"),
  "hyperliquid:flx": hyperliquidHip3Stream("hyperliquid:flx"),
  "hyperliquid:vntl": hyperliquidHip3Stream("hyperliquid:vntl"),
  "hyperliquid:hyna": hyperliquidHip3Stream("hyperliquid:hyna"),
  "hyperliquid:km": hyperliquidHip3Stream("hyperliquid:km"),
  "hyperliquid:cash": hyperliquidHip3Stream("hyperliquid:cash"),
  "hyperliquid:para": hyperliquidHip3Stream("hyperliquid:para"),
};
