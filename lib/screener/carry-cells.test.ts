import { describe, expect, it } from "vitest";
import { rankCarryOpportunities } from "@/lib/market/carry/carry-pairs";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { makeSpot } from "@/tests/support/market/make-spot";
import { basisNote, CARRY_TYPE_LABELS, carryPersistenceCell } from "./carry-cells";
import { persistenceCell } from "./persistence-cell";

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

  it("show a held spot's persistence as a pair's, and say a borrowed spot has none for want of borrow history", () => {
    const none = { paid_share_7d: null, apr_median_7d: null, apr_median_30d: null, apr_stddev_7d: null, positive_since: null, as_of: null };
    const some = { ...none, paid_share_7d: 0.9, apr_median_7d: 12.3 };
    expect(carryPersistenceCell({ type: "spot_perp", persistence: some })).toEqual(persistenceCell(some));
    expect(carryPersistenceCell({ type: "spot_perp", persistence: some }).text).toBe("paid 90% · med 12.30%");
    expect(carryPersistenceCell({ type: "spot_perp", persistence: none })).toEqual(persistenceCell(none));
    expect(carryPersistenceCell({ type: "perp_spot", persistence: none })).toEqual({ text: "—", title: expect.stringContaining("borrow rate's history") });
  });
});
