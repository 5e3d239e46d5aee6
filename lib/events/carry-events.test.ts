import { describe, expect, it } from "vitest";
import { carryItemsOf, pickCarryColumns, type CarryColumns } from "@/lib/market/carry/carry-columns";
import { rankCarryColumns } from "@/lib/market/carry/carry-pairs";
import type { SpotLeg } from "@/lib/market/carry/spot-leg";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { makeSpot } from "@/tests/support/market/make-spot";
import { carryEvents } from "./carry-events";
import { EVENT_DATA_SCHEMAS } from "./event-data";

const observedAt = Date.UTC(2026, 8, 27, 13, 30);
const spot = (exchange: SpotLeg["exchange"]): SpotLeg => makeSpot({ exchange });

/** The carry set of one BTC perpetual on Binance paying `rate` per 8 h against spot on `spots`. */
function carrySet(rate: number, spots: SpotLeg["exchange"][], perpVenues: SpotLeg["exchange"][] = ["binance"]): CarryColumns {
  const perps = perpVenues.map((exchange) => makeSnapshot({ exchange, fundingRate: rate, fundingIntervalHours: 8, markPrice: 100, takerFee: 0.0005, observedAt }));
  return rankCarryColumns(perps, spots.map(spot));
}

/** The set's first item alone, its net APR set to `net_apr`. */
function withNet(set: CarryColumns, net_apr: number): CarryColumns {
  const one = pickCarryColumns(set, [0]);
  one.net_apr[0] = net_apr;
  return one;
}

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
        last_apr: carryItemsOf(before).find((i) => i.spot.exchange === "okx")!.apr,
        last_net_apr: carryItemsOf(before).find((i) => i.spot.exchange === "okx")!.net_apr,
      },
    });
    // Every event is what its type's schema says it carries.
    for (const event of events) expect(() => EVENT_DATA_SCHEMAS[event.type].parse(event.data)).not.toThrow();
  });

  it("updates an item whose net APR moved by the threshold or more, and only those", () => {
    const set = carrySet(0.0001, ["binance"]);
    const moved = carryEvents(withNet(set, 20), withNet(set, 25), 5);
    expect(moved).toEqual([{ type: "carry_opportunity.updated", data: { opportunity: { ...carryItemsOf(set)[0]!, net_apr: 25 }, previous_net_apr: 20 } }]);
    expect(carryEvents(withNet(set, 20), withNet(set, 24.9), 5)).toEqual([]);
    expect(carryEvents(withNet(set, 20), withNet(set, 15), 5).map((e) => e.type)).toEqual(["carry_opportunity.updated"]);
  });

  it("matches a pair by its asset, type and venues wherever the two sets list its legs", () => {
    const before = carrySet(0.0001, ["binance", "okx"], ["binance", "bybit"]);
    const after = carrySet(0.0001, ["okx"], ["bybit"]);
    // bybit's perpetual and okx's spot are listed at other positions in `after`: still the same pair, so only binance's are closed.
    expect(after.perps.map((leg) => leg.exchange)).toEqual(["bybit"]);
    const closed = carryEvents(before, after, 5).map((e) => (e.type === "carry_opportunity.closed" ? e.data.id : e.type));
    expect(closed.sort()).toEqual(["BTC-spot_perp-binance-binance", "BTC-spot_perp-binance-bybit", "BTC-spot_perp-okx-binance"]);
  });

  it("says nothing between a set and itself", () => {
    const set = carrySet(0.0003, ["binance", "okx", "bybit"]);
    expect(carryEvents(set, set, 0.01)).toEqual([]);
  });
});
