import type { VenueId } from "../model/types";

/** Display names of the venues, as the venues write them. */
export const VENUE_NAMES: Record<VenueId, string> = {
  binance: "Binance",
  bybit: "Bybit",
  okx: "OKX",
  bitget: "Bitget",
  gate: "Gate",
  hyperliquid: "Hyperliquid",
  bitmart: "BitMart",
  bitmex: "BitMEX",
  coinex: "CoinEx",
  phemex: "Phemex",
  woo: "WOO X",
  dydx: "dYdX",
  lighter: "Lighter",
  paradex: "Paradex",
  extended: "Extended",
  mexc: "MEXC",
  kucoinfutures: "KuCoin",
  bingx: "BingX",
  htx: "HTX",
  aster: "Aster",
  grvt: "GRVT",
  backpack: "Backpack",
  deribit: "Deribit",
};
