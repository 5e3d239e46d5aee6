import { describe, expect, it } from "vitest";
import { hoursBetweenSettlements, intervalsMatchingSchedule, MIDNIGHT_GRID, parseIntervalHours } from "./funding-interval";

// Times of the real Binance 2025-06-17 premiumIndex capture: `time` 08:38:08Z.
const TIME_2025 = 1750149488000;

describe("intervalsMatchingSchedule", () => {
  it.each([
    [1750150800000, [1]], // 09:00Z: AXL, WCT, LPT, SOPH, SIGN, RVN
    [1750154400000, [2]], // 10:00Z: TROY, FLM, VIDT
    [1750161600000, [4]], // 12:00Z: TON, WIF, ENA, …
    [1750176000000, [8]], // 16:00Z: BTC, ETH, …
  ])("next settlement %d seen at 08:38Z allows only %j", (next, expected) => {
    expect(intervalsMatchingSchedule(next, TIME_2025, MIDNIGHT_GRID)).toEqual(expected);
  });

  it("leaves 4h and 8h open when 16:00Z is seen at 13:54Z (the 2024 capture)", () => {
    expect(intervalsMatchingSchedule(1732723200000, 1732715655000, MIDNIGHT_GRID)).toEqual([4, 8]);
  });

  it("allows nothing for a settlement in the past or a zero placeholder", () => {
    expect(intervalsMatchingSchedule(0, TIME_2025, MIDNIGHT_GRID)).toEqual([]);
    expect(intervalsMatchingSchedule(TIME_2025 - 1, TIME_2025, MIDNIGHT_GRID)).toEqual([]);
  });

  it("tolerates settlement stamps a few milliseconds off the hour", () => {
    expect(intervalsMatchingSchedule(1750176000002, TIME_2025, MIDNIGHT_GRID)).toEqual([8]);
  });

  describe("on a grid that does not start at 00:00 UTC (BitMEX: 8h at 04/12/20)", () => {
    const BITMEX_GRID = { offsetHours: 4 };

    it("reads the real BitMEX recording (next 2024-11-25 04:00Z seen at 23:33:19Z) as 8h", () => {
      const next = Date.parse("2024-11-25T04:00:00.000Z");
      const time = Date.parse("2024-11-24T23:33:19.034Z");
      expect(intervalsMatchingSchedule(next, time, BITMEX_GRID)).toEqual([8]);
    });

    it("never reads its 12:00 settlement seen at 09:00 as 4h alone", () => {
      const next = Date.UTC(2026, 5, 12, 12);
      // 3 h before 12:00 on a 04/12/20 grid: 4h and 8h both fit; a 00:00 grid would say 4h only.
      expect(intervalsMatchingSchedule(next, next - 3 * 3_600_000, BITMEX_GRID)).toEqual([4, 8]);
      expect(intervalsMatchingSchedule(next, next - 7 * 3_600_000, BITMEX_GRID)).toEqual([8]);
    });

    it("gives the interval from two consecutive settlements on any grid", () => {
      expect(hoursBetweenSettlements(Date.UTC(2026, 5, 12, 4), Date.UTC(2026, 5, 12, 12))).toBe(8);
    });
  });
});

describe("hoursBetweenSettlements", () => {
  it("reads whole hours between consecutive settlements", () => {
    expect(hoursBetweenSettlements(1790524800000, 1790553600000)).toBe(8);
    expect(hoursBetweenSettlements(1790524800000, 1790539200000)).toBe(4);
    expect(hoursBetweenSettlements(1790524800000, 1790528400000)).toBe(1);
  });

  it("refuses gaps that are not a positive whole number of hours", () => {
    expect(hoursBetweenSettlements(1790524800000, 1790524800000)).toBeNull();
    expect(hoursBetweenSettlements(1790553600000, 1790524800000)).toBeNull();
    expect(hoursBetweenSettlements(1790524800000, 1790524800000 + 5_400_000)).toBeNull();
    expect(hoursBetweenSettlements(Number.NaN, 1790524800000)).toBeNull();
  });
});

describe("parseIntervalHours", () => {
  it.each([
    [8, 8],
    ["8", 8],
    ["4h", 4],
    [" 1 ", 1],
  ])("%j → %d", (value, hours) => {
    expect(parseIntervalHours(value)).toBe(hours);
  });

  it.each([undefined, null, "", "0", 0, -8, "eight", Number.NaN, {}])("%j → null", (value) => {
    expect(parseIntervalHours(value)).toBeNull();
  });
});
