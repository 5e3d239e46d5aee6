import { describe, expect, it } from "vitest";
import { SPLIT_TOLERANCE, venuesForSecondThread } from "./split-venues";
import type { VenueId } from "../model/types";

describe("venuesForSecondThread", () => {
  const weights: Partial<Record<VenueId, number>> = { binance: 1858, bybit: 1205, bitget: 1204, okx: 602, gate: 604, mexc: 603, htx: 604 };
  const weightOf = (venue: VenueId) => weights[venue] ?? 1;
  const load = (venues: Iterable<VenueId>) => [...venues].reduce((sum, v) => sum + weightOf(v), 0);

  it("splits the markets about evenly, the heaviest venue to the second thread", () => {
    const venues = Object.keys(weights) as VenueId[];
    const second = venuesForSecondThread(venues, weightOf);
    const own = venues.filter((v) => !second.has(v));
    expect(second.has("binance")).toBe(true);
    // Greedy, heaviest first: the two sides never differ by more than the heaviest venue.
    expect(Math.abs(load(second) - load(own))).toBeLessThanOrEqual(1858);
    expect(load(second) + load(own)).toBe(load(venues));
    // binance; then bybit and bitget beside it; then the ~600s, equal ones in name order.
    expect([...second].sort()).toEqual(["binance", "gate", "mexc"]);
    expect([load(second), load(own)]).toEqual([3065, 3615]);
  });

  it("alternates venues of equal weight in name order, whatever order they are given in", () => {
    const venues: VenueId[] = ["okx", "binance", "woo", "bybit"];
    const second = venuesForSecondThread(venues, () => 1);
    expect([...second].sort()).toEqual(["binance", "okx"]);
    expect(venuesForSecondThread([...venues].reverse(), () => 1)).toEqual(second);
  });

  it("gives a single venue to the second thread and nothing when there is none", () => {
    expect([...venuesForSecondThread(["gate"], weightOf)]).toEqual(["gate"]);
    expect(venuesForSecondThread([], weightOf).size).toBe(0);
  });
});

describe("venuesForSecondThread with the split until now", () => {
  // 3,800 in all: the sides may be up to 190 apart (SPLIT_TOLERANCE).
  const weights: Partial<Record<VenueId, number>> = { binance: 1000, bybit: 900, okx: 600, gate: 500, mexc: 400, htx: 300, woo: 100 };
  const weightOf = (venue: VenueId) => weights[venue] ?? 1;
  const venues = Object.keys(weights) as VenueId[];

  it("keeps a split within the tolerance, though a new split would differ", () => {
    expect(SPLIT_TOLERANCE * 3_800).toBe(190); // what the cases below are built on
    expect([...venuesForSecondThread(venues, weightOf)].sort()).toEqual(["binance", "gate", "mexc"]);
    const previous = new Set<VenueId>(["binance", "gate", "htx", "woo"]);
    expect([...venuesForSecondThread(venues, weightOf, previous)].sort()).toEqual(["binance", "gate", "htx", "woo"]);
  });

  it("moves the one venue that balances a split off by more, not every venue a new split would", () => {
    // 2,500 against 1,300: okx (600) over to the round's thread leaves 1,900 each.
    const moved = venuesForSecondThread(venues, weightOf, new Set(["binance", "bybit", "okx"]));
    expect([...moved].sort()).toEqual(["binance", "bybit"]);
    // And from then on it stays.
    expect(venuesForSecondThread(venues, weightOf, moved)).toEqual(moved);
  });

  it("counts a venue the split has not seen on the round's thread, and moves toward the second when that side is light", () => {
    // phemex (700) new: 1,900 against 2,600; mexc (400) over leaves 2,300 each.
    const withNew = [...venues, "phemex"] as VenueId[];
    const weightWithNew = (venue: VenueId) => (venue === "phemex" ? 700 : weightOf(venue));
    expect([...venuesForSecondThread(withNew, weightWithNew, new Set(["binance", "gate", "htx", "woo"]))].sort()).toEqual(["binance", "gate", "htx", "mexc", "woo"]);
  });

  it("moves nothing when no move brings the sides closer", () => {
    expect(venuesForSecondThread(["binance"], weightOf, new Set()).size).toBe(0);
    expect([...venuesForSecondThread(["binance", "woo"], weightOf, new Set(["binance"]))]).toEqual(["binance"]);
  });
});
