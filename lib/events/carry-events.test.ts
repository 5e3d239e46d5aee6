import { describe, expect, it } from "vitest";
import { rankCarryOpportunities } from "@/lib/market/carry/carry-pairs";
import type { CarryOpportunity } from "@/lib/market/carry/carry-opportunity";
import type { SpotLeg } from "@/lib/market/carry/spot-leg";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { makeSpot } from "@/tests/support/market/make-spot";
import { carryEvents } from "./carry-events";
import { EVENT_DATA_SCHEMAS } from "./event-data";

const observedAt = Date.UTC(2026, 8, 27, 13, 30);
const spot = (exchange: SpotLeg["exchange"]): SpotLeg => makeSpot({ exchange });

/** The carry set of one BTC perpetual on Binance paying `rate` per 8 h against spot on `spots`. */
function carrySet(rate: number, spots: SpotLeg["exchange"][]): CarryOpportunity[] {
  const perp = makeSnapshot({ exchange: "binance", fundingRate: rate, fundingIntervalHours: 8, markPrice: 100, takerFee: 0.0005, observedAt });
  return rankCarryOpportunities([perp], spots.map(spot));
}

const withNet = (item: CarryOpportunity, net_apr: number): CarryOpportunity => ({ ...item, net_apr });

describe("carryEvents", () => {
  it("opens what is new, closes what is gone, and leaves unchanged items quiet", () => {
    const before = carrySet(0.0001, ["binance", "okx"]);
    const after = carrySet(0.0001, ["binance", "bybit"]);
    const events = carryEvents(before, after, 5);
    expect(events.map((e) => e.type)).toEqual(["carry_opportunity.opened", "carry_opportunity.closed"]);
    expect(events[0]).toMatchObject({ data: { opportunity: { id: "BTC-spot_perp-bybit-binance" } } });
    expect(events[1]).toEqual({
      type: "carry_opportunity.closed",
      data: {
        id: "BTC-spot_perp-okx-binance",
        symbol: "BTC",
        type: "spot_perp",
        spot: { exchange: "okx", market: "BTC/USDT" },
        perp: { exchange: "binance", market: "BTC/USDT:USDT" },
        last_apr: before.find((i) => i.spot.exchange === "okx")!.apr,
        last_net_apr: before.find((i) => i.spot.exchange === "okx")!.net_apr,
      },
    });
    // Every event is what its type's schema says it carries.
    for (const event of events) expect(() => EVENT_DATA_SCHEMAS[event.type].parse(event.data)).not.toThrow();
  });

  it("updates an item whose net APR moved by the threshold or more, and only those", () => {
    const [item] = carrySet(0.0001, ["binance"]);
    const moved = carryEvents([withNet(item!, 20)], [withNet(item!, 25)], 5);
    expect(moved).toEqual([{ type: "carry_opportunity.updated", data: { opportunity: withNet(item!, 25), previous_net_apr: 20 } }]);
    expect(carryEvents([withNet(item!, 20)], [withNet(item!, 24.9)], 5)).toEqual([]);
    expect(carryEvents([withNet(item!, 20)], [withNet(item!, 15)], 5).map((e) => e.type)).toEqual(["carry_opportunity.updated"]);
  });

  it("says nothing between a set and itself", () => {
    const set = carrySet(0.0003, ["binance", "okx", "bybit"]);
    expect(carryEvents(set, set, 0.01)).toEqual([]);
  });
});
