import { describe, expect, it } from "vitest";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { marketSnapshotSchema, type MarketSnapshot } from "../model/types";
import type { StreamUpdate } from "../venues/streams/stream-protocol";
import { mergeStreamUpdate, mergeStreamUpdates, valuesDiffer } from "./merge-stream-update";

const ROUND_AT = Date.UTC(2026, 11, 2, 13, 0);
const base = (overrides: Partial<MarketSnapshot> = {}) =>
  makeSnapshot({
    exchange: "binance",
    rateCap: 0.003,
    rateFloor: -0.003,
    predictedFundingRate: null,
    observedAt: ROUND_AT,
    ...overrides,
  });
const update = (fields: StreamUpdate["fields"], venueTime: number | null = null, venueMarketId = "BTCUSDT"): StreamUpdate => ({ venueMarketId, fields, venueTime });

describe("mergeStreamUpdate", () => {
  it("lays the message's present fields over the round's snapshot, marked as streamed", () => {
    const merged = mergeStreamUpdate(base(), update({ fundingRate: 0.00025, markPrice: 101.5 }, ROUND_AT + 4_000), ROUND_AT + 4_100);
    expect(merged).toEqual({ ...base(), fundingRate: 0.00025, markPrice: 101.5, observedAt: ROUND_AT + 4_000, transport: "stream" });
    expect(marketSnapshotSchema.safeParse(merged).success).toBe(true);
  });

  it("dates the merge by the message's arrival when the venue states no time", () => {
    expect(mergeStreamUpdate(base(), update({ indexPrice: 99.9 }), ROUND_AT + 7_000)?.observedAt).toBe(ROUND_AT + 7_000);
  });

  it("keeps every number a stream never carries from the round: interval, its source, caps, open interest, volume, fee", () => {
    const round = base({ fundingIntervalHours: 4, fundingIntervalSource: "schedule", openInterestUsd: 123, volume24hUsd: 456, takerFee: 0.0004 });
    const merged = mergeStreamUpdate(round, update({ fundingRate: 0.0009, predictedFundingRate: 0.0008, nextFundingAt: ROUND_AT + 3_600_000 }), ROUND_AT + 1);
    expect(merged).toMatchObject({
      fundingIntervalHours: 4,
      fundingIntervalSource: "schedule",
      rateCap: 0.003,
      rateFloor: -0.003,
      openInterestUsd: 123,
      volume24hUsd: 456,
      takerFee: 0.0004,
      fundingRate: 0.0009,
      predictedFundingRate: 0.0008,
      nextFundingAt: ROUND_AT + 3_600_000,
    });
  });

  it("answers nothing for a frame that changes no value, however new", () => {
    const round = base();
    expect(mergeStreamUpdate(round, update({ fundingRate: round.fundingRate, markPrice: round.markPrice }, ROUND_AT + 60_000), ROUND_AT + 60_000)).toBeUndefined();
    expect(mergeStreamUpdate(round, update({}, ROUND_AT + 60_000), ROUND_AT + 60_000)).toBeUndefined();
    // The round said "no forecast" (absent) and the stream says none: the same.
    expect(mergeStreamUpdate(base({ predictedFundingRate: undefined }), update({ predictedFundingRate: null }), ROUND_AT + 1)).toBeUndefined();
  });

  it("takes the venue's null as a value: the field is cleared", () => {
    expect(mergeStreamUpdate(base(), update({ nextFundingAt: null }), ROUND_AT + 1)).toMatchObject({ nextFundingAt: null, transport: "stream" });
  });

  it("drops values the snapshot's schema refuses, and merges the rest", () => {
    const merged = mergeStreamUpdate(base(), update({ markPrice: 0, indexPrice: Number.NaN, nextFundingAt: -5, fundingRate: 0.0003 }), ROUND_AT + 1);
    expect(merged).toMatchObject({ markPrice: 100, indexPrice: 100, fundingRate: 0.0003 });
    expect(mergeStreamUpdate(base(), update({ markPrice: -1 }), ROUND_AT + 1)).toBeUndefined();
  });

  it("ignores a message the venue timed before the stream message already merged", () => {
    const streamed = mergeStreamUpdate(base(), update({ fundingRate: 0.0002 }, ROUND_AT + 5_000), ROUND_AT + 5_010)!;
    expect(mergeStreamUpdate(streamed, update({ fundingRate: 0.0003 }, ROUND_AT + 4_000), ROUND_AT + 5_020)).toBeUndefined();
    // Against a round's snapshot the times are not compared: a REST answer's time may be its fetch.
    expect(mergeStreamUpdate(base({ observedAt: ROUND_AT + 10_000 }), update({ fundingRate: 0.0003 }, ROUND_AT + 4_000), ROUND_AT + 10_100)?.fundingRate).toBe(0.0003);
  });
});

describe("mergeStreamUpdates", () => {
  const bases = () => new Map([base(), base({ base: "ETH", venueMarketId: "ETHUSDT", market: "ETH/USDT:USDT" })].map((s) => [s.venueMarketId, s]));

  it("changes the bases, so the next frame's deltas compare with what this one left", () => {
    const held = bases();
    const first = mergeStreamUpdates(held, [update({ fundingRate: 0.0002 }, ROUND_AT + 1_000)], ROUND_AT + 1_000);
    expect(first.changed.map((s) => s.fundingRate)).toEqual([0.0002]);
    expect(held.get("BTCUSDT")?.fundingRate).toBe(0.0002);
    // The same value again, then a delta of another field: only the delta is news.
    expect(mergeStreamUpdates(held, [update({ fundingRate: 0.0002 }, ROUND_AT + 2_000)], ROUND_AT + 2_000).changed).toEqual([]);
    const third = mergeStreamUpdates(held, [update({ markPrice: 102 }, ROUND_AT + 3_000)], ROUND_AT + 3_000);
    expect(third.changed).toEqual([expect.objectContaining({ fundingRate: 0.0002, markPrice: 102, observedAt: ROUND_AT + 3_000 })]);
  });

  it("gives one snapshot per market, the last update of a frame over the earlier", () => {
    const { changed } = mergeStreamUpdates(
      bases(),
      [update({ markPrice: 101 }), update({ markPrice: 50 }, null, "ETHUSDT"), update({ fundingRate: 0.0004 })],
      ROUND_AT + 1,
    );
    expect(changed.map((s) => [s.venueMarketId, s.markPrice, s.fundingRate])).toEqual([
      ["BTCUSDT", 101, 0.0004],
      ["ETHUSDT", 50, 0.0001],
    ]);
  });

  it("ignores and counts markets the round did not list", () => {
    const held = bases();
    const result = mergeStreamUpdates(held, [update({ markPrice: 3 }, null, "SOLUSDT"), update({ markPrice: 4 }, null, "XRPUSDT"), update({ markPrice: 101 })], ROUND_AT + 1);
    expect(result.unknown).toBe(2);
    expect(result.changed.map((s) => s.venueMarketId)).toEqual(["BTCUSDT"]);
    expect(held.has("SOLUSDT")).toBe(false);
  });
});

describe("valuesDiffer", () => {
  it("sees a change of any value and not of the observation's time or transport", () => {
    expect(valuesDiffer(base(), base({ observedAt: ROUND_AT + 9_000, transport: "poll" }))).toBe(false);
    expect(valuesDiffer(base(), base({ openInterestUsd: 2 }))).toBe(true);
    expect(valuesDiffer(base(), base({ fundingIntervalHours: 4 }))).toBe(true);
    expect(valuesDiffer(base({ predictedFundingRate: undefined }), base({ predictedFundingRate: null }))).toBe(false);
  });
});
