import { describe, expect, it } from "vitest";
import { EXCLUDED_LEGS_LISTED, exclusionsByVenue, storedExclusions, type ExcludedLeg } from "./pairing-exclusions";

const leg = (exchange: string, asset: string, unit_price = 1): ExcludedLeg => ({
  exchange,
  market: `${asset}/USDT:USDT`,
  venue_base: asset,
  asset,
  unit_price,
  median_price: 2,
});

describe("the legs a round left out", () => {
  it("are stored with every venue's count, and listed by venue, asset and market up to the cap", () => {
    const legs = [
      ...Array.from({ length: EXCLUDED_LEGS_LISTED + 10 }, (_, i) => leg("mexc", `A${String(i).padStart(4, "0")}`)),
      leg("gate", "NEIRO", 0.051),
      leg("bybit", "SHIB", 0.0125),
    ];
    const stored = storedExclusions(0.05, legs);
    expect(stored.counts).toEqual({ mexc: EXCLUDED_LEGS_LISTED + 10, gate: 1, bybit: 1 });
    expect(stored.legs).toHaveLength(EXCLUDED_LEGS_LISTED);
    expect(stored.legs.slice(0, 3).map((l) => `${l.exchange}:${l.asset}`)).toEqual(["bybit:SHIB", "gate:NEIRO", "mexc:A0000"]);

    const startedAt = new Date("2026-12-03T12:00:00Z");
    const byVenue = exclusionsByVenue(stored, { id: "r1", startedAt });
    expect(byVenue.round_started_at).toBe("2026-12-03T12:00:00.000Z");
    // Most left out first, then by venue id; each venue's listed legs beside its whole count.
    expect(byVenue.venues.map((v) => [v.exchange, v.excluded, v.legs.length])).toEqual([
      ["mexc", EXCLUDED_LEGS_LISTED + 10, EXCLUDED_LEGS_LISTED - 2],
      ["bybit", 1, 1],
      ["gate", 1, 1],
    ]);
  });

  it("say so when none were left out", () => {
    expect(exclusionsByVenue(storedExclusions(0.05, []), { id: "r2", startedAt: new Date(0) }).venues).toEqual([]);
  });
});
