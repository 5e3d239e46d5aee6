import { describe, expect, it } from "vitest";
import { venuesForSecondThread } from "./split-venues";
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
