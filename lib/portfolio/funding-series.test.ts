import { describe, expect, it } from "vitest";
import { accrue } from "./accrual";
import { cumulativeFunding, type SeriesPosition } from "./funding-series";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 20);

describe("cumulativeFunding", () => {
  it("is empty without positions or settlements", () => {
    expect(cumulativeFunding([])).toEqual([]);
    expect(cumulativeFunding([{ notionalUsd: 1000, openedAt: T0, until: T0 + HOUR, long: [], short: [] }])).toEqual([]);
  });

  it("sums both legs and every position per settlement instant, counting only (openedAt, until]", () => {
    const a: SeriesPosition = {
      notionalUsd: 10_000,
      openedAt: T0,
      until: T0 + 16 * HOUR,
      long: [0, 8, 16, 24].map((h) => ({ time: T0 + h * HOUR, rate: 0.0001 })),
      short: [0, 8, 16, 24].map((h) => ({ time: T0 + h * HOUR, rate: 0.0003 })),
    };
    const b: SeriesPosition = {
      notionalUsd: 1000,
      openedAt: T0 + 4 * HOUR,
      until: T0 + 24 * HOUR,
      long: [],
      short: [8, 12].map((h) => ({ time: T0 + h * HOUR, rate: -0.001 })),
    };
    expect(cumulativeFunding([a, b])).toEqual([
      { time: T0 + 8 * HOUR, funding_usd: 2 - 1 },
      { time: T0 + 12 * HOUR, funding_usd: 0 },
      { time: T0 + 16 * HOUR, funding_usd: 2 },
    ]);
  });

  it("ends at the funding income accrue() reports", () => {
    const p: SeriesPosition = {
      notionalUsd: 2500,
      openedAt: T0,
      until: T0 + 48 * HOUR,
      long: Array.from({ length: 50 }, (_, h) => ({ time: T0 + h * HOUR, rate: 0.00002 * ((h % 3) - 1) })),
      short: [0, 8, 16, 24, 32, 40, 48].map((h) => ({ time: T0 + h * HOUR, rate: 0.00015 })),
    };
    const accrual = accrue({
      notionalUsd: p.notionalUsd,
      openedAt: p.openedAt,
      asOf: p.until,
      long: { exchange: "a", market: "m", takerFee: 0, settlements: p.long },
      short: { exchange: "b", market: "m", takerFee: 0, settlements: p.short },
    });
    const series = cumulativeFunding([p]);
    expect(series.at(-1)!.funding_usd).toBeCloseTo(accrual.funding_income_usd, 6);
  });
});
