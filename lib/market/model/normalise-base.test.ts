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
  ])("%s → %s × %d", (venueBase, base, multiplier) => {
    expect(normaliseBase(venueBase)).toEqual({ base, multiplier });
  });

  it.each(["1INCH", "KAVA", "KSM", "KAITO", "0G", "2Z", "T", "BTCDOM", "NEIROETH"])(
    "leaves %s alone: digits or capital K belong to the name",
    (venueBase) => {
      expect(normaliseBase(venueBase)).toEqual({ base: venueBase, multiplier: 1 });
    },
  );
});
