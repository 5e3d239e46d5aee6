import { describe, expect, it } from "vitest";
import { rankCarryOpportunities } from "../carry/carry-pairs";
import { replaySampleMarket } from "./replay-sample-market";
import { readSampleSpotLegs } from "./sample-spot-legs";

describe("the offline sample's spot legs", () => {
  it("are the recorded spot answers read as live ones, each dated by its answer, OKX's with its recorded BTC borrow rate", async () => {
    const legs = await readSampleSpotLegs();
    expect(legs.map((leg) => [leg.exchange, leg.market, leg.price, leg.observedAt])).toEqual([
      ["bybit", "BTC/USDT", 20533.13, "2023-01-16T08:51:27.947Z"],
      ["okx", "BTC/USDT", 16839.1, "2023-01-04T20:19:20.203Z"],
      ["bitget", "BTC/USDT", 85768.48, "2026-10-05T05:45:16.418Z"],
      ["kucoinfutures", "BTC/USDT", 11328.9, "2020-10-16T07:08:12.060Z"],
    ]);
    expect(legs.filter((leg) => leg.borrow !== null).map((leg) => [leg.exchange, leg.borrow])).toEqual([
      ["okx", { asset: "BTC", rate: 0.00019992, period: "day", borrowable: 10, source: "/api/v5/public/interest-rate-loan-quota", observedAt: "2023-01-04T20:19:20.203Z" }],
    ]);
  });

  it("rank against the sample's perpetuals into both sides of the trade", async () => {
    const [{ snapshots }, spots] = await Promise.all([replaySampleMarket(), readSampleSpotLegs()]);
    const items = rankCarryOpportunities(snapshots, spots);
    const btcPerpVenues = new Set(snapshots.filter((s) => s.base === "BTC" && s.fundingRate !== null).map((s) => s.exchange));
    // Each of the four spot venues against every venue's BTC perpetual, and OKX's lent BTC against each of them.
    expect(items.filter((item) => item.type === "spot_perp")).toHaveLength(4 * btcPerpVenues.size);
    const borrowed = items.filter((item) => item.type === "perp_spot");
    expect(borrowed).toHaveLength(btcPerpVenues.size);
    // OKX lends at 0.019992 % a day: 7.29708 % a year.
    for (const item of borrowed) expect(item).toMatchObject({ spot: { exchange: "okx" }, borrow_apr: 7.29708, borrowable: 10 });
    // Recordings years apart have no basis; the same moment's would.
    for (const item of items) if (item.basis_bps === null) expect(item.basis_unavailable_reason).not.toBeNull();
    for (const item of items) expect(Math.abs(item.apr), item.id).toBeLessThan(1_000);
  });
});
