import { describe, expect, it } from "vitest";
import { computeOpportunities } from "@/lib/market/opportunities/rank-opportunities";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { legDetails } from "./leg-details";

const [pair] = computeOpportunities([
  makeSnapshot({
    exchange: "binance",
    fundingRate: 0.0075,
    fundingIntervalHours: 4,
    predictedFundingRate: 0.0075,
    rateCap: 0.0075,
    rateFloor: -0.0075,
    intervalChangedAt: Date.UTC(2026, 10, 22, 8),
    lastSettlement: { rate: 0.0061, at: Date.UTC(2026, 10, 24, 8) },
  }),
  makeSnapshot({ exchange: "okx", fundingRate: -0.0001, rateCap: 0.015, rateFloor: -0.0075 }),
]).opportunities;

describe("legDetails", () => {
  it("words the forecast, the last settlement, symmetric bounds and both badges", () => {
    const short = pair!.short;
    expect(short.exchange).toBe("binance");
    expect(legDetails(short)).toEqual({
      predicted: "pred 0.7500%",
      settled: "settled 0.6100% · 2026-11-24 08:00 UTC",
      bounds: "cap ±0.7500%",
      badges: [
        { label: "at cap", kind: "at-cap", note: expect.stringContaining("may shorten the funding interval") },
        { label: "interval changed", kind: "interval-changed", note: "The funding interval changed to 4h on 2026-11-22 08:00 UTC." },
      ],
    });
  });

  it("leaves out what the venue does not publish, and words uneven bounds apart", () => {
    expect(legDetails(pair!.long)).toEqual({ predicted: null, settled: null, bounds: "cap +1.5000% / -0.7500%", badges: [] });
  });
});
