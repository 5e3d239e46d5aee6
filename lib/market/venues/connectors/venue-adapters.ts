import type { VenueId } from "../../model/types";
import { asterAdapter } from "./aster";
import { backpackAdapter } from "./backpack";
import { binanceAdapter } from "./binance";
import { bingxAdapter } from "./bingx";
import { bitgetAdapter } from "./bitget";
import { bitmartAdapter } from "./bitmart";
import { bitmexAdapter } from "./bitmex";
import { bybitAdapter } from "./bybit";
import { coinexAdapter } from "./coinex";
import { deribitAdapter } from "./deribit";
import { dydxAdapter } from "./dydx";
import { extendedAdapter } from "./extended";
import { gateAdapter } from "./gate";
import { grvtAdapter } from "./grvt";
import { htxAdapter } from "./htx";
import { hyperliquidAdapter } from "./hyperliquid";
import { hyperliquidHip3Adapter } from "./hyperliquid-hip3";
import { kucoinfuturesAdapter } from "./kucoinfutures";
import { lighterAdapter } from "./lighter";
import { mexcAdapter } from "./mexc";
import { okxAdapter } from "./okx";
import { paradexAdapter } from "./paradex";
import { phemexAdapter } from "./phemex";
import { wooAdapter } from "./woo";
import { krakenfuturesAdapter } from "./krakenfutures";
import { deriveAdapter } from "./derive";
import { driftAdapter } from "./drift";
import { pacificaAdapter } from "./pacifica";
import { orderlyAdapter } from "./orderly";
import { btseAdapter } from "./btse";
import { weexAdapter } from "./weex";
import { variationalAdapter } from "./variational";
import { hibachiAdapter } from "./hibachi";
import { edgexAdapter } from "./edgex";
import { etherealAdapter } from "./ethereal";
import { bitfinexAdapter } from "./bitfinex";
import { whitebitAdapter } from "./whitebit";
import { hitbtcAdapter } from "./hitbtc";
import { toobitAdapter } from "./toobit";
import { apexAdapter } from "./apex";
import { cryptocomAdapter } from "./cryptocom";
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
  | typeof dydxAdapter
  | typeof asterAdapter
  | typeof lighterAdapter
  | typeof paradexAdapter
  | typeof extendedAdapter
  | typeof grvtAdapter
  | typeof backpackAdapter
  | typeof mexcAdapter
  | typeof kucoinfuturesAdapter
  | typeof bingxAdapter
  | typeof htxAdapter
  | typeof bitmartAdapter
  | typeof deribitAdapter
  | typeof bitmexAdapter
  | typeof coinexAdapter
  | typeof phemexAdapter
  | typeof wooAdapter
  | typeof krakenfuturesAdapter
  | typeof deriveAdapter
  | typeof driftAdapter
  | typeof pacificaAdapter
  | typeof btseAdapter
  | typeof weexAdapter
  | typeof variationalAdapter
  | typeof hibachiAdapter
  | typeof edgexAdapter
  | typeof etherealAdapter
  | typeof bitfinexAdapter
  | typeof cryptocomAdapter
  | typeof whitebitAdapter
  | typeof hitbtcAdapter
  | typeof toobitAdapter
  | typeof apexAdapter
  | HttpVenueAdapter;

export const VENUE_ADAPTERS: Readonly<Record<VenueId, AnyVenueAdapter>> = {
  binance: binanceAdapter,
  bybit: bybitAdapter,
  okx: okxAdapter,
  bitget: bitgetAdapter,
  gate: gateAdapter,
  hyperliquid: hyperliquidAdapter,
  dydx: dydxAdapter,
  aster: asterAdapter,
  lighter: lighterAdapter,
  paradex: paradexAdapter,
  extended: extendedAdapter,
  grvt: grvtAdapter,
  backpack: backpackAdapter,
  mexc: mexcAdapter,
  kucoinfutures: kucoinfuturesAdapter,
  bingx: bingxAdapter,
  htx: htxAdapter,
  bitmart: bitmartAdapter,
  deribit: deribitAdapter,
  bitmex: bitmexAdapter,
  coinex: coinexAdapter,
  phemex: phemexAdapter,
  woo: wooAdapter,
  krakenfutures: krakenfuturesAdapter,
  derive: deriveAdapter,
  drift: driftAdapter,
  pacifica: pacificaAdapter,
  orderly: orderlyAdapter,
  btse: btseAdapter,
  weex: weexAdapter,
  variational: variationalAdapter,
  hibachi: hibachiAdapter,
  edgex: edgexAdapter,
  ethereal: etherealAdapter,
  bitfinex: bitfinexAdapter,
  cryptocom: cryptocomAdapter,
  whitebit: whitebitAdapter,
  hitbtc: hitbtcAdapter,
  toobit: toobitAdapter,
  apex: apexAdapter,
  // One adapter, one venue per HIP-3 dex (model/hip3-venues.ts).
  "hyperliquid:xyz": hyperliquidHip3Adapter("hyperliquid:xyz"),
  "hyperliquid:flx": hyperliquidHip3Adapter("hyperliquid:flx"),
  "hyperliquid:vntl": hyperliquidHip3Adapter("hyperliquid:vntl"),
  "hyperliquid:hyna": hyperliquidHip3Adapter("hyperliquid:hyna"),
  "hyperliquid:km": hyperliquidHip3Adapter("hyperliquid:km"),
  "hyperliquid:cash": hyperliquidHip3Adapter("hyperliquid:cash"),
  "hyperliquid:para": hyperliquidHip3Adapter("hyperliquid:para"),
};

export type { HttpVenueAdapter, VenueAdapter };
