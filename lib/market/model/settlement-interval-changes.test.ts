import { describe, expect, it } from "vitest";
import type { FundingIntervalChange } from "./funding-interval-change";
import type { FundingSettlement } from "./funding-settlement";
import { intervalChangesInSettlements, legIntervalChanges } from "./settlement-interval-changes";

const HOUR = 3_600_000;
const T0 = Date.parse("2026-11-20T00:00:00Z");

function settlement(hoursAfter: number, intervalHours: number | null): FundingSettlement {
  return {
    exchange: "bybit",
    market: "BTC/USDT:USDT",
    symbol: "BTC",
    time: new Date(T0 + hoursAfter * HOUR).toISOString(),
    funding_rate: 0.0001,
    funding_interval_hours: intervalHours,
    apr: intervalHours === null ? null : 10,
    source: "sample",
  };
}

function stored(effectiveHoursAfter: number, from: number, to: number): FundingIntervalChange {
  return {
    exchange: "bybit",
    market: "BTC/USDT:USDT",
    symbol: "BTC",
    effective_at: new Date(T0 + effectiveHoursAfter * HOUR).toISOString(),
    from_hours: from,
    to_hours: to,
    source: "venue",
    detected_at: new Date(T0 + (effectiveHoursAfter + 1) * HOUR).toISOString(),
  };
}

describe("intervalChangesInSettlements", () => {
  it("finds each change of interval, dated from the settlement that ended the old interval", () => {
    const series = [settlement(0, 8), settlement(8, 8), settlement(12, 4), settlement(16, 4), settlement(24, 8)];
    expect(intervalChangesInSettlements(series)).toEqual([
      expect.objectContaining({ effective_at: "2026-11-20T08:00:00.000Z", detected_at: "2026-11-20T12:00:00.000Z", from_hours: 8, to_hours: 4, source: "history" }),
      expect.objectContaining({ effective_at: "2026-11-20T16:00:00.000Z", detected_at: "2026-11-21T00:00:00.000Z", from_hours: 4, to_hours: 8 }),
    ]);
  });

  it("reads settlements in time order and skips those of unknown interval", () => {
    const series = [settlement(16, 4), settlement(0, 8), settlement(8, null), settlement(12, 4)];
    const changes = intervalChangesInSettlements(series);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ effective_at: "2026-11-20T00:00:00.000Z", from_hours: 8, to_hours: 4 });
  });

  it("finds none in a steady series or an empty one", () => {
    expect(intervalChangesInSettlements([settlement(0, 1), settlement(1, 1), settlement(2, 1)])).toEqual([]);
    expect(intervalChangesInSettlements([])).toEqual([]);
  });
});

describe("legIntervalChanges", () => {
  const series = [settlement(0, 8), settlement(8, 8), settlement(12, 4), settlement(16, 4)];

  it("adds what the settlements show when nothing was stored", () => {
    expect(legIntervalChanges([], series).map((c) => c.source)).toEqual(["history"]);
  });

  it("keeps a stored change and drops the same one read from the settlements", () => {
    const changes = legIntervalChanges([stored(10, 8, 4)], series);
    expect(changes).toEqual([stored(10, 8, 4)]);
  });

  it("keeps both when the stored change is another one: other lengths or more than an interval apart", () => {
    expect(legIntervalChanges([stored(9, 4, 1)], series).map((c) => c.source)).toEqual(["history", "venue"]);
    expect(legIntervalChanges([stored(-20, 8, 4)], series).map((c) => c.effective_at)).toEqual([
      "2026-11-19T04:00:00.000Z",
      "2026-11-20T08:00:00.000Z",
    ]);
  });
});
