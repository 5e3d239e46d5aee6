import { describe, expect, it } from "vitest";
import { marketSnapshotSchema, type MarketSnapshot } from "../../model/types";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { isValidSnapshot } from "./valid-snapshot";

/** Valid, with the optional fields present too, so their rules are tried against a whole snapshot. */
const VALID: MarketSnapshot = makeSnapshot({ exchange: "binance", predictedFundingRate: null, rateCap: 0.003, rateFloor: -0.003, openInterestUsd: 0 });

/** Values at and past every edge a field's rule has, and values of the wrong kind. */
const EDGES: unknown[] = [
  undefined, null, 0, -0, 1, -1, 0.5, -1e-300, 1e-300, 8, Number.NaN, Infinity, -Infinity,
  2 ** 53 - 1, 2 ** 53, 2 ** 60, 1_763_990_000_000, 1_763_990_000_000.5, "", "x", "0.1", "binance",
  "Binance", "1inch", "bin-ance", "hyperliquid:xyz", "hyperliquid:", "hyperliquid:xyz:km", ":xyz", "equity", "crypto", "always-off-hours-oracle", "venue", "schedule", "continuous", "hourly", true, false, {}, [],
  { rate: 0.001, at: 1_763_990_000_000 }, { rate: Number.NaN, at: 1 }, { rate: 0.001, at: -1 }, { rate: "0.1", at: 1 },
];

const FIELDS = [...Object.keys(VALID), "intervalChangedAt", "lastSettlement", "underlyingClass", "tradingHours"];

describe("isValidSnapshot", () => {
  it("accepts a whole valid snapshot, with and without the history fields", () => {
    expect(isValidSnapshot(VALID)).toBe(true);
    expect(isValidSnapshot({ ...VALID, intervalChangedAt: 1_763_000_000_000, lastSettlement: { rate: -0.0002, at: 1_763_980_000_000 } })).toBe(true);
  });

  it("judges every field's edge values as marketSnapshotSchema does", () => {
    let rejected = 0;
    for (const field of FIELDS) {
      for (const value of EDGES) {
        const candidate = { ...VALID, [field]: value } as MarketSnapshot;
        const expected = marketSnapshotSchema.safeParse(candidate).success;
        expect({ field, value, valid: isValidSnapshot(candidate) }).toEqual({ field, value, valid: expected });
        if (!expected) rejected += 1;
      }
    }
    // The comparison means something only if the schema refused many of them.
    expect(rejected).toBeGreaterThan(FIELDS.length * 10);
  });

  it("judges a missing required field as the schema does", () => {
    for (const field of Object.keys(VALID)) {
      const candidate: Record<string, unknown> = { ...VALID };
      delete candidate[field];
      expect({ field, valid: isValidSnapshot(candidate as MarketSnapshot) }).toEqual({
        field,
        valid: marketSnapshotSchema.safeParse(candidate).success,
      });
    }
  });
});
