import { describe, expect, it } from "vitest";
import { makeLeg } from "@/tests/support/market/make-leg";
import { ageSeconds, isStale, legAtAnswer, legObservedMs, nextStaleAt, servedAt, servedOpportunity, staleFrom } from "./leg-freshness";
import type { Opportunity } from "./types";

const T = Date.parse("2026-11-24T12:00:00.000Z");
const THREE_MINUTES = 180_000;
const at = (ms: number) => ({ at: ms, staleAfterMs: THREE_MINUTES });

describe("legObservedMs", () => {
  it("reads the leg's own time, else the set's, else nothing vouches for it", () => {
    const asOf = "2026-11-24T11:00:00.000Z";
    expect(legObservedMs(makeLeg({ exchange: "okx", observed_at: "2026-11-24T12:00:00.000Z" }), asOf)).toBe(T);
    expect(legObservedMs(makeLeg({ exchange: "okx", observed_at: null }), asOf)).toBe(Date.parse(asOf));
    expect(legObservedMs(makeLeg({ exchange: "okx", observed_at: null }), null)).toBe(-Infinity);
  });
});

describe("isStale and staleFrom", () => {
  it("turn stale strictly after the threshold, at the millisecond staleFrom names", () => {
    expect(isStale(T, at(T))).toBe(false);
    expect(isStale(T, at(T + THREE_MINUTES))).toBe(false);
    expect(isStale(T, at(T + THREE_MINUTES + 1))).toBe(true);
    expect(staleFrom(T, THREE_MINUTES)).toBe(T + THREE_MINUTES + 1);
    expect(isStale(T, at(staleFrom(T, THREE_MINUTES)))).toBe(true);
    expect(isStale(-Infinity, at(T))).toBe(true);
    // A venue clock ahead of ours makes a leg from the future: fresh, not an error.
    expect(isStale(T + 5_000, at(T))).toBe(false);
  });
});

describe("nextStaleAt", () => {
  it("is the earliest moment after now a leg turns stale, skipping those already stale", () => {
    const legs = [T - 10_000, T - 200_000, T - 30_000, -Infinity];
    expect(nextStaleAt(legs, at(T))).toBe(T - 10_000 + THREE_MINUTES + 1 - 20_000);
    expect(nextStaleAt(legs, at(T + 150_001))).toBe(T - 10_000 + THREE_MINUTES + 1);
    expect(nextStaleAt(legs, at(T + 170_001))).toBeUndefined();
    expect(nextStaleAt([], at(T))).toBeUndefined();
  });
});

describe("servedOpportunity", () => {
  const item = {
    id: "BTC-binance-okx",
    long: makeLeg({ exchange: "binance" }),
    short: makeLeg({ exchange: "okx" }),
  } as Opportunity;

  const fresh = { stale: false, age_seconds: 3 };
  const old = { stale: true, age_seconds: 400 };

  it("flags each leg as told and the item when either is, leaving the published item alone", () => {
    expect(servedOpportunity(item, fresh, fresh)).toMatchObject({ stale: false, long: { stale: false }, short: { stale: false } });
    expect(servedOpportunity(item, fresh, old)).toMatchObject({ stale: true, long: { stale: false, age_seconds: 3 }, short: { stale: true, age_seconds: 400 } });
    expect(servedOpportunity(item, old, fresh)).toMatchObject({ stale: true, long: { stale: true }, short: { stale: false } });
    expect(item.long).not.toHaveProperty("stale");
    expect(item.long).not.toHaveProperty("age_seconds");
    expect(item).not.toHaveProperty("stale");
  });

  it("computes each leg's age at the moment of the answer, not when the set was made", () => {
    const legs = {
      ...item,
      long: makeLeg({ exchange: "binance", observed_at: "2026-11-24T12:00:00.000Z" }),
      short: makeLeg({ exchange: "okx", observed_at: null }),
    } as Opportunity;
    const asOf = "2026-11-24T11:59:00.000Z";
    const first = servedAt(legs, asOf, at(T + 2_500));
    expect(first.long).toMatchObject({ age_seconds: 2, stale: false, transport: "poll" });
    expect(first.short).toMatchObject({ age_seconds: 62, stale: false });
    const later = servedAt(legs, asOf, at(T + 200_000));
    expect(later.long).toMatchObject({ age_seconds: 200, stale: true });
    expect(later.short).toMatchObject({ age_seconds: 260, stale: true });
    expect(servedAt(legs, null, at(T)).short).toMatchObject({ age_seconds: null, stale: true });
  });
});

describe("ageSeconds and legAtAnswer", () => {
  it("counts whole seconds, never below 0, and nothing for an unknown time", () => {
    expect(ageSeconds(T, T)).toBe(0);
    expect(ageSeconds(T, T + 999)).toBe(0);
    expect(ageSeconds(T, T + 1_000)).toBe(1);
    expect(ageSeconds(T, T + 61_500)).toBe(61);
    // A venue clock ahead of ours.
    expect(ageSeconds(T + 5_000, T)).toBe(0);
    expect(ageSeconds(-Infinity, T)).toBeNull();
    expect(legAtAnswer(T, at(T + THREE_MINUTES + 1))).toEqual({ stale: true, age_seconds: 180 });
  });
});
