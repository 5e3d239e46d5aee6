import { describe, expect, it } from "vitest";
import { rankCarryOpportunities } from "@/lib/market/carry/carry-pairs";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { makeSpot } from "@/tests/support/market/make-spot";
import { basisNote, CARRY_TYPE_LABELS } from "./carry-cells";

describe("carry cells", () => {
  it("name each side of the trade in words", () => {
    expect(CARRY_TYPE_LABELS).toEqual({ spot_perp: "Held spot, short perpetual", perp_spot: "Borrowed spot, long perpetual" });
  });

  it("give no note when the basis is given, and say why it is not otherwise, naming the spot venue", () => {
    const perp = makeSnapshot({ exchange: "bybit", fundingRate: 0.0001 });
    const [together] = rankCarryOpportunities([perp], [makeSpot({ exchange: "binance" })]);
    expect(together!.basis_bps).not.toBeNull();
    expect(basisNote(together!)).toBeNull();
    const [apart] = rankCarryOpportunities([perp], [makeSpot({ exchange: "binance", observedAt: new Date(perp.observedAt - 3_600_000).toISOString() })]);
    expect(apart!.basis_unavailable_reason).toBe("legs_observed_apart");
    expect(basisNote(apart!)).toMatch(/^Legs observed 60 min apart \(Binance .* UTC, Bybit .* UTC\)/);
  });
});
