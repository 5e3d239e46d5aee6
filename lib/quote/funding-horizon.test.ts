import { describe, expect, it } from "vitest";
import { breakevenHours, fundingUsd, settlementsBetween, type FundingSchedule } from "./funding-horizon";

const H = 3_600_000;
const FROM = Date.parse("2026-11-24T05:30:00Z");
const eightHourly = (nextInHours: number, predictedRate: number | null = null): FundingSchedule => ({
  rate: 0.0001,
  predictedRate,
  intervalHours: 8,
  nextFundingAt: FROM + nextInHours * H,
});

describe("settlementsBetween", () => {
  it("settles at the next settlement and every interval after it, within (from, to]", () => {
    // 2h, 10h, …, 66h after from: (72 − 2) / 8 = 8.75, so 9 settlements; the 10th would be at 74h.
    const { settlements, assumed } = settlementsBetween(eightHourly(2), FROM, FROM + 72 * H);
    expect(settlements.map((s) => (s.at - FROM) / H)).toEqual([2, 10, 18, 26, 34, 42, 50, 58, 66]);
    expect(assumed).toBe(false);
  });

  it("pays the current rate first and the venue's forecast after it", () => {
    const { settlements } = settlementsBetween(eightHourly(2, 0.0002), FROM, FROM + 72 * H);
    expect(settlements.map((s) => s.rate)).toEqual([0.0001, ...Array(8).fill(0.0002)]);
    // 0.0001 + 8 × 0.0002 = 0.0017 of 10,000: the short leg earns 17, the long leg pays it.
    expect(fundingUsd("short", 10_000, settlements)).toBeCloseTo(17, 9);
    expect(fundingUsd("long", 10_000, settlements)).toBeCloseTo(-17, 9);
  });

  it("holds the current rate where the venue publishes no forecast", () => {
    const { settlements } = settlementsBetween(eightHourly(2), FROM, FROM + 24 * H);
    expect(settlements.map((s) => s.rate)).toEqual([0.0001, 0.0001, 0.0001]);
  });

  it("rolls a next settlement already past forward by whole intervals", () => {
    // Stated 5h ago: the venue has settled since, and next settles 8 − 5 = 3h from now.
    expect(settlementsBetween(eightHourly(-5), FROM, FROM + 12 * H).settlements.map((s) => (s.at - FROM) / H)).toEqual([3, 11]);
    // A settlement exactly at `from` is not the position's: it was opened after it.
    expect(settlementsBetween(eightHourly(0), FROM, FROM + 8 * H).settlements.map((s) => (s.at - FROM) / H)).toEqual([8]);
  });

  it("counts an hourly leg's 72 settlements in 72 hours", () => {
    const hourly = { rate: 0.00001, predictedRate: null, intervalHours: 1, nextFundingAt: FROM + 0.5 * H };
    expect(settlementsBetween(hourly, FROM, FROM + 72 * H).settlements).toHaveLength(72);
  });

  it("takes the UTC multiples of the interval when the venue stated no next settlement, and says so", () => {
    const unknown = { rate: 0.0001, predictedRate: null, intervalHours: 8, nextFundingAt: null };
    const { settlements, assumed } = settlementsBetween(unknown, FROM, FROM + 24 * H);
    // From 05:30Z: 08:00Z, 16:00Z and 00:00Z the next day.
    expect(settlements.map((s) => new Date(s.at).toISOString())).toEqual([
      "2026-11-24T08:00:00.000Z",
      "2026-11-24T16:00:00.000Z",
      "2026-11-25T00:00:00.000Z",
    ]);
    expect(assumed).toBe(true);
  });
});

describe("breakevenHours", () => {
  const short = { side: "short" as const, notionalUsd: 10_000, schedule: { rate: 0.0001, predictedRate: null, intervalHours: 1, nextFundingAt: FROM + 0.5 * H } };
  const long = { side: "long" as const, notionalUsd: 10_000, schedule: eightHourly(2) };

  it("is when the funding, settlement by settlement, first covers the costs", () => {
    // The short leg earns 1 every hour from 0.5h, the long leg pays 1 every 8 hours from 2h:
    // 1, 2, (2h) 1, 2, 3, … 9 at 9.5h, (10h) 8, 9 at 10.5h, 10 at 11.5h.
    expect(breakevenHours(10, [short, long], FROM)).toBe(11.5);
  });

  it("counts settlements of both legs at one instant together", () => {
    // Both settle at 1h: +1 − 1 = 0 then, so the cost of 1 is covered at 2h, not at 1h.
    const both = [
      { ...short, schedule: { ...short.schedule, nextFundingAt: FROM + H } },
      { ...long, schedule: { ...long.schedule, nextFundingAt: FROM + H } },
    ];
    expect(breakevenHours(1, both, FROM)).toBe(2);
  });

  it("starts a leg at its stated next settlement even when that is more than one interval away", () => {
    // The interval has just shortened to 1 h but the next settlement stays at the old grid's, 2 h
    // away: the short leg earns 1 at 2h, 3h, 4h…, so a cost of 3 is covered at 4h.
    const shortened = { ...short, schedule: { ...short.schedule, nextFundingAt: FROM + 2 * H } };
    expect(breakevenHours(3, [shortened], FROM)).toBe(4);
    // With the long leg paying 1 at 2h, 10h…: 1 − 1 = 0 at 2h, then +1 an hour: 3 at 5h.
    expect(breakevenHours(3, [shortened, long], FROM)).toBe(5);
  });

  it("is 0 with nothing to cover, and null when funding never covers it within a year", () => {
    expect(breakevenHours(0, [short, long], FROM)).toBe(0);
    const paying = [{ ...short, side: "long" as const }];
    expect(breakevenHours(1, paying, FROM)).toBeNull();
  });
});
