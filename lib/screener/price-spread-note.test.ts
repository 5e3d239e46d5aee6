import { describe, expect, it } from "vitest";
import type { OpportunityLeg } from "@/lib/market/model/types";
import { makeLeg } from "@/tests/support/market/make-leg";
import { formatGap, priceSpreadNote } from "./price-spread-note";

const leg = (exchange: string, observed_at: string | null, mark_price: number | null = 100): OpportunityLeg =>
  makeLeg({ exchange, observed_at, mark_price });

describe("priceSpreadNote", () => {
  it("says nothing when the spread is given", () => {
    expect(priceSpreadNote({ long: leg("okx", null), short: leg("bybit", null), price_spread_unavailable_reason: null })).toBeNull();
  });

  it("names both legs' times and how far apart they are", () => {
    const note = priceSpreadNote({
      long: leg("okx", "2026-09-27T13:50:00.000Z"),
      short: leg("binance", "2025-06-17T08:38:08.000Z"),
      price_spread_unavailable_reason: "legs_observed_apart",
    });
    expect(note).toBe(
      "Legs observed 467 days apart (OKX 2026-09-27 13:50:00 UTC, Binance 2025-06-17 08:38:08 UTC); a spread would compare different moments.",
    );
    expect(
      priceSpreadNote({
        long: leg("bybit", "2026-11-24T12:00:00.000Z"),
        short: leg("hyperliquid", "2026-11-24T12:00:45.000Z"),
        price_spread_unavailable_reason: "legs_observed_apart",
      }),
    ).toContain("Legs observed 45 s apart (Bybit 2026-11-24 12:00:00 UTC, Hyperliquid 2026-11-24 12:00:45 UTC)");
  });

  it("names the venue without a price, and says an unknown time is why", () => {
    const unpriced = { long: leg("gate", null, null), short: leg("okx", null), price_spread_unavailable_reason: "price_missing" as const };
    expect(priceSpreadNote(unpriced)).toBe("No mark price from Gate, so there is no spread to show.");
    expect(priceSpreadNote({ ...unpriced, price_spread_unavailable_reason: "observation_time_unknown" })).toBe(
      "When a leg was observed is not known, so a spread could compare different moments.",
    );
  });
});

describe("formatGap", () => {
  it("reads in the largest sensible unit", () => {
    expect(formatGap(31_000)).toBe("31 s");
    expect(formatGap(119_000)).toBe("119 s");
    expect(formatGap(120_000)).toBe("2 min");
    expect(formatGap(119 * 60_000)).toBe("119 min");
    expect(formatGap(5 * 3_600_000)).toBe("5 h");
    expect(formatGap(3 * 86_400_000)).toBe("3 days");
  });
});
