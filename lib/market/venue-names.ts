import type { VenueId } from "./types";

/** Display names of the venues, as the venues write them. */
export const VENUE_NAMES: Record<VenueId, string> = {
  binance: "Binance",
  bybit: "Bybit",
  okx: "OKX",
  bitget: "Bitget",
  gate: "Gate",
  hyperliquid: "Hyperliquid",
  aster: "Aster",
  grvt: "GRVT",
  backpack: "Backpack",
  deribit: "Deribit",
};
