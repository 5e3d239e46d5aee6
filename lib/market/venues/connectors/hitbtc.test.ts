import { describe, expect, it } from "vitest";
import { hitbtcInterval, hitbtcLastSettlements } from "./hitbtc";

// ccxt's documented history row (hitbtc fetchFundingRateHistory comment): settled 16:00, next 00:00.
const DOCUMENTED = { BTCUSDT_PERP: [{ timestamp: "2021-07-29T16:00:00.271Z", funding_rate: "0.0001", avg_premium_index: "0.000061858585213222", next_funding_time: "2021-07-30T00:00:00.000Z", interest_rate: "0.0001" }] };
const NEXT = Date.parse("2021-07-30T00:00:00.000Z");

describe("hitbtcInterval", () => {
  const last = hitbtcLastSettlements(DOCUMENTED).get("BTCUSDT_PERP");

  it("is the distance between the last settlement and the next one when the live row names the same next", () => {
    expect(hitbtcInterval(NEXT, last)).toEqual({ hours: 8, source: "schedule" });
  });

  it("still holds one interval on (a settlement the history does not list yet), not two", () => {
    expect(hitbtcInterval(NEXT + 8 * 3_600_000, last)).toEqual({ hours: 8, source: "schedule" });
    expect(hitbtcInterval(NEXT + 16 * 3_600_000, last)).toBeNull();
    expect(hitbtcInterval(NEXT + 4 * 3_600_000, last)).toBeNull();
  });

  it("is unknown without a history row or a live next time", () => {
    expect(hitbtcInterval(NEXT, undefined)).toBeNull();
    expect(hitbtcInterval(undefined, last)).toBeNull();
  });
});

describe("hitbtcLastSettlements", () => {
  it("refuses an answer that is not an object of histories", () => {
    expect(() => hitbtcLastSettlements([])).toThrow(/expected an object/);
  });
});
