import { describe, expect, it } from "vitest";
import type { StreamFields } from "../venues/streams/stream-protocol";
import { refreshPhase } from "./price-news";
import { StreamConflation } from "./stream-conflation";

const RULE = { moveBps: 10, refreshMs: 15_000 };
const T0 = 1_700_000_000_000;
const update = (venueMarketId: string, fields: StreamFields, venueTime: number | null = null) => ({ venueMarketId, fields, venueTime });

/** A conflation whose markets were forwarded once at T0 with these fields. */
function forwardedOnce(fields: StreamFields, ids: readonly string[] = ["BTCUSDT"]) {
  const conflation = new StreamConflation(RULE);
  for (const id of ids) conflation.offer(update(id, fields, T0 - 10), T0 - 5);
  expect(conflation.take(T0).map((u) => u.venueMarketId)).toEqual(ids);
  return conflation;
}

describe("StreamConflation", () => {
  it("forwards a market first heard at once, with what its stream carried", () => {
    const conflation = new StreamConflation(RULE);
    conflation.offer(update("BTCUSDT", { markPrice: 60_000, fundingRate: 0.0001 }, T0 - 3), T0);
    expect(conflation.take(T0 + 50)).toEqual([{ venueMarketId: "BTCUSDT", fields: { markPrice: 60_000, fundingRate: 0.0001 }, venueTime: T0 - 3, receivedAt: T0 }]);
    expect(conflation.take(T0 + 100)).toEqual([]);
  });

  it("forwards a funding change at once, however small", () => {
    const conflation = forwardedOnce({ markPrice: 60_000, fundingRate: 0.0001, nextFundingAt: T0 + 3_600_000 });
    conflation.offer(update("BTCUSDT", { fundingRate: 0.00010001 }), T0 + 10);
    expect(conflation.take(T0 + 50)).toMatchObject([{ fields: { markPrice: 60_000, fundingRate: 0.00010001, nextFundingAt: T0 + 3_600_000 } }]);
    conflation.offer(update("BTCUSDT", { nextFundingAt: T0 + 7_200_000 }), T0 + 60);
    conflation.offer(update("BTCUSDT", { predictedFundingRate: 0.0002 }), T0 + 70);
    expect(conflation.take(T0 + 100)).toMatchObject([{ fields: { nextFundingAt: T0 + 7_200_000, predictedFundingRate: 0.0002 } }]);
  });

  it("without a refresh period, holds small price moves until news of the market, which takes the latest along", () => {
    const conflation = new StreamConflation({ ...RULE, refreshMs: 0 });
    conflation.offer(update("BTCUSDT", { markPrice: 60_000, fundingRate: 0.0001 }, T0 - 10), T0 - 5);
    expect(conflation.take(T0)).toHaveLength(1);
    conflation.offer(update("BTCUSDT", { markPrice: 60_054 }, T0 + 90), T0 + 100);
    for (let at = T0 + 50; at <= T0 + 10 * 60_000; at += 5_000) expect(conflation.take(at)).toEqual([]);
    conflation.offer(update("BTCUSDT", { fundingRate: 0.0002 }), T0 + 10 * 60_000 + 10);
    expect(conflation.take(T0 + 10 * 60_000 + 50)).toMatchObject([{ fields: { markPrice: 60_054, fundingRate: 0.0002 } }]);
  });

  it("holds small price moves and forwards the latest at the market's refresh turn", () => {
    const conflation = forwardedOnce({ markPrice: 60_000, indexPrice: 60_010, fundingRate: 0.0001 });
    // 9 bps and 5 bps from what was forwarded: held, however many frames carry them.
    conflation.offer(update("BTCUSDT", { markPrice: 60_054 }, T0 + 90), T0 + 100);
    conflation.offer(update("BTCUSDT", { indexPrice: 60_040 }, T0 + 190), T0 + 200);
    expect(conflation.take(T0 + 250)).toEqual([]);
    // The market's turn comes once in the period, at its phase.
    const turn = (Math.floor(T0 / RULE.refreshMs + refreshPhase("BTCUSDT")) + 1 - refreshPhase("BTCUSDT")) * RULE.refreshMs;
    expect(turn).toBeGreaterThan(T0 + 250);
    expect(turn).toBeLessThanOrEqual(T0 + RULE.refreshMs + 1);
    expect(conflation.take(Math.ceil(turn) - 1)).toEqual([]);
    expect(conflation.take(Math.ceil(turn) + 1)).toEqual([
      { venueMarketId: "BTCUSDT", fields: { markPrice: 60_054, indexPrice: 60_040, fundingRate: 0.0001 }, venueTime: T0 + 190, receivedAt: T0 + 200 },
    ]);
  });

  it("forwards a price move of the threshold or more, and a price appearing or going, at once", () => {
    const conflation = forwardedOnce({ markPrice: 60_000, fundingRate: 0.0001 });
    conflation.offer(update("BTCUSDT", { markPrice: 60_061 }), T0 + 10);
    expect(conflation.take(T0 + 50)).toMatchObject([{ fields: { markPrice: 60_061 } }]);
    // Measured from what was forwarded, not from the last frame: small steps add up to news.
    conflation.offer(update("BTCUSDT", { markPrice: 60_090 }), T0 + 60);
    expect(conflation.take(T0 + 100)).toEqual([]);
    conflation.offer(update("BTCUSDT", { markPrice: 60_122 }), T0 + 110);
    expect(conflation.take(T0 + 150)).toMatchObject([{ fields: { markPrice: 60_122 } }]);
    conflation.offer(update("BTCUSDT", { indexPrice: 60_100 }), T0 + 160);
    expect(conflation.take(T0 + 200)).toMatchObject([{ fields: { indexPrice: 60_100 } }]);
    conflation.offer(update("BTCUSDT", { indexPrice: null }), T0 + 210);
    expect(conflation.take(T0 + 250)).toMatchObject([{ fields: { indexPrice: null } }]);
  });

  it("coalesces a market's frames: the last value of each field, the newest venue time", () => {
    const conflation = forwardedOnce({ markPrice: 60_000, fundingRate: 0.0001 });
    conflation.offer(update("BTCUSDT", { fundingRate: 0.0002, markPrice: 61_000 }, T0 + 300), T0 + 301);
    conflation.offer(update("BTCUSDT", { fundingRate: 0.0003 }, T0 + 200), T0 + 302);
    conflation.offer(update("BTCUSDT", { markPrice: 61_500 }, null), T0 + 303);
    expect(conflation.take(T0 + 350)).toEqual([
      { venueMarketId: "BTCUSDT", fields: { markPrice: 61_500, fundingRate: 0.0003 }, venueTime: T0 + 300, receivedAt: T0 + 303 },
    ]);
  });

  it("forwards every market once a refresh period, unchanged ones too, spread over the period", () => {
    const ids = Array.from({ length: 200 }, (_, i) => `M${i}`);
    const conflation = forwardedOnce({ markPrice: 1, fundingRate: 0.0001 }, ids);
    const forwardedAt = new Map<string, number[]>();
    for (let at = T0 + 50; at <= T0 + 2 * RULE.refreshMs; at += 50) {
      for (const u of conflation.take(at)) forwardedAt.set(u.venueMarketId, [...(forwardedAt.get(u.venueMarketId) ?? []), at]);
    }
    // Each market twice in two periods, a period apart.
    for (const id of ids) {
      const times = forwardedAt.get(id) ?? [];
      expect(times).toHaveLength(2);
      expect(times[1]! - times[0]!).toBeGreaterThan(RULE.refreshMs - 100);
      expect(times[1]! - times[0]!).toBeLessThan(RULE.refreshMs + 100);
    }
    // Not one burst: the first period's refreshes fall in many different seconds.
    const seconds = new Set(ids.map((id) => Math.floor((forwardedAt.get(id)![0]! - T0) / 1_000)));
    expect(seconds.size).toBeGreaterThanOrEqual(12);
  });

  it("after a resync forwards each market's next update at once, unchanged or not", () => {
    const conflation = forwardedOnce({ markPrice: 60_000, fundingRate: 0.0001 }, ["BTCUSDT", "ETHUSDT"]);
    conflation.resync();
    expect(conflation.take(T0 + 50)).toEqual([]);
    conflation.offer(update("BTCUSDT", { markPrice: 60_000 }), T0 + 60);
    expect(conflation.take(T0 + 100)).toMatchObject([{ venueMarketId: "BTCUSDT", fields: { markPrice: 60_000, fundingRate: 0.0001 } }]);
    conflation.offer(update("BTCUSDT", { markPrice: 60_001 }), T0 + 110);
    conflation.offer(update("ETHUSDT", { markPrice: 60_001 }), T0 + 120);
    expect(conflation.take(T0 + 150).map((u) => u.venueMarketId)).toEqual(["ETHUSDT"]);
  });

  it("ignores non-finite values and forgets markets no longer listed", () => {
    const conflation = forwardedOnce({ markPrice: 60_000 }, ["BTCUSDT", "ETHUSDT"]);
    conflation.offer(update("BTCUSDT", { markPrice: Number.NaN, fundingRate: Number.POSITIVE_INFINITY }), T0 + 10);
    expect(conflation.take(T0 + 50)).toEqual([]);
    conflation.keepOnly(["ETHUSDT"]);
    expect(conflation.size).toBe(1);
  });
});
