import { describe, expect, it } from "vitest";
import { normaliseBase } from "./normalise-base";

describe("normaliseBase", () => {
  it.each([
    ["BTC", "BTC", 1],
    ["1000PEPE", "PEPE", 1_000], // Binance, Bybit
    ["kPEPE", "PEPE", 1_000], // Hyperliquid
    ["1000000MOG", "MOG", 1_000_000], // Bybit
    ["1MBABYDOGE", "BABYDOGE", 1_000_000], // Binance
    ["10000LADYS", "LADYS", 10_000],
    ["1000BONK", "BONK", 1_000],
    // Drift's bundled markets (drift-labs/protocol-v2 sdk perpMarkets: 1MPEPE, 1MBONK, 1KWEN, 1KMEW, 1KPUMP, 1KMON).
    ["1MPEPE", "PEPE", 1_000_000],
    ["1MBONK", "BONK", 1_000_000],
    ["1KWEN", "WEN", 1_000],
    ["1KMEW", "MEW", 1_000],
    ["1KPUMP", "PUMP", 1_000],
    ["1KMON", "MON", 1_000],
    // Bybit's older suffix form (SHIB1000USDT is Binance's 1000SHIBUSDT and Hyperliquid's kSHIB).
    ["SHIB1000", "SHIB", 1_000],
    ["BONK1000", "BONK", 1_000],
    ["FLOKI1000", "FLOKI", 1_000],
    ["PEPE1000", "PEPE", 1_000],
    ["SATS10000", "SATS", 10_000],
  ])("%s → %s × %d", (venueBase, base, multiplier) => {
    expect(normaliseBase(venueBase)).toEqual({ base, multiplier });
  });

  it.each(["1INCH", "KAVA", "KSM", "KAITO", "0G", "2Z", "T", "BTCDOM", "NEIROETH", "1K", "1KX", "1M", "A8", "AI16Z", "X2Y2", "B1000", "MOG100", "1000"])(
    "leaves %s alone: digits or capital K belong to the name",
    (venueBase) => {
      expect(normaliseBase(venueBase)).toEqual({ base: venueBase, multiplier: 1 });
    },
  );
});
