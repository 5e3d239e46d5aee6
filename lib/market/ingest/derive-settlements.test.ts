import { describe, expect, it } from "vitest";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { deriveSettlements, type PreviousObservation } from "./derive-settlements";

const EIGHT = Date.UTC(2026, 10, 20, 8);
const previous = (overrides: Partial<PreviousObservation> = {}): PreviousObservation => ({
  exchange: "bybit",
  market: "BTC/USDT:USDT",
  base: "BTC",
  fundingRate: 0.0002,
  fundingIntervalHours: 8,
  nextFundingAt: EIGHT,
  observedAt: EIGHT - 60_000,
  ...overrides,
});

describe("deriveSettlements", () => {
  it("records the previous rate at the settlement time that passed between two observations", () => {
    const rows = deriveSettlements([previous()], [makeSnapshot({ exchange: "bybit", observedAt: EIGHT + 60_000, fundingRate: 0.0009 })]);
    expect(rows).toEqual([
      { exchange: "bybit", market: "BTC/USDT:USDT", base: "BTC", time: new Date(EIGHT), rate: 0.0002, intervalHours: 8, source: "observed" },
    ]);
  });

  it("records nothing before the settlement time, for markets not seen again, or without a rate", () => {
    expect(deriveSettlements([previous()], [makeSnapshot({ exchange: "bybit", observedAt: EIGHT - 1 })])).toEqual([]);
    expect(deriveSettlements([previous()], [makeSnapshot({ exchange: "okx", observedAt: EIGHT + 1 })])).toEqual([]);
    expect(deriveSettlements([previous({ fundingRate: null })], [makeSnapshot({ exchange: "bybit", observedAt: EIGHT + 1 })])).toEqual([]);
    // A next funding time already in the past when observed is not a settlement this service saw coming.
    expect(deriveSettlements([previous({ observedAt: EIGHT + 1 })], [makeSnapshot({ exchange: "bybit", observedAt: EIGHT + 2 })])).toEqual([]);
  });

  it("counts a settlement exactly at the new observation's time", () => {
    expect(deriveSettlements([previous()], [makeSnapshot({ exchange: "bybit", observedAt: EIGHT })])).toHaveLength(1);
  });

  it("judges each market by its own new observation, not the round's newest", () => {
    // OKX answered after the settlement, Bybit before it: only OKX's market settled as far as this service saw.
    const rows = deriveSettlements(
      [previous(), previous({ exchange: "okx" })],
      [makeSnapshot({ exchange: "bybit", observedAt: EIGHT - 1 }), makeSnapshot({ exchange: "okx", observedAt: EIGHT + 5_000 })],
    );
    expect(rows.map((r) => r.exchange)).toEqual(["okx"]);
  });
});
