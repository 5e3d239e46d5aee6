import { describe, expect, it } from "vitest";
import { formatAge, formatApr, formatBps, formatFundingRate, formatInterval, formatSeconds, formatUsdCompact, formatAssetAmount } from "./format";

describe("screener formatting", () => {
  it("shows funding rates per interval as percentages with four decimals", () => {
    expect(formatFundingRate(0.0001)).toBe("0.0100%");
    expect(formatFundingRate(-0.00075)).toBe("-0.0750%");
    expect(formatFundingRate(-0.0000001)).toBe("0.0000%");
  });

  it("shows APRs with two decimals and a dash when unknown", () => {
    expect(formatApr(12.3456)).toBe("12.35%");
    expect(formatApr(-3.2)).toBe("-3.20%");
    expect(formatApr(null)).toBe("—");
    expect(formatApr(undefined)).toBe("—");
  });

  it("shows intervals in hours", () => {
    expect(formatInterval(8)).toBe("8h");
    expect(formatInterval(1)).toBe("1h");
    expect(formatInterval(0.5)).toBe("0.5h");
  });

  it("signs price spreads", () => {
    expect(formatBps(3.21)).toBe("+3.2 bps");
    expect(formatBps(-12)).toBe("-12.0 bps");
    expect(formatBps(0.01)).toBe("0.0 bps");
    expect(formatBps(null)).toBe("—");
  });

  it("abbreviates dollar amounts", () => {
    expect(formatUsdCompact(950)).toBe("$950");
    expect(formatUsdCompact(950_000)).toBe("$950K");
    expect(formatUsdCompact(12_345)).toBe("$12.3K");
    expect(formatUsdCompact(1_234_567)).toBe("$1.23M");
    expect(formatUsdCompact(999_999)).toBe("$1.00M");
    expect(formatUsdCompact(42_000_000_000)).toBe("$42.0B");
    expect(formatUsdCompact(0)).toBe("$0");
    expect(formatUsdCompact(null)).toBe("—");
  });

  it("shows asset amounts compactly with the asset, small ones to four significant digits", () => {
    expect(formatAssetAmount(10, "BTC")).toBe("10 BTC");
    expect(formatAssetAmount(0.123456, "BTC")).toBe("0.1235 BTC");
    expect(formatAssetAmount(2_500_000, "DOGE")).toBe("2.50M DOGE");
    expect(formatAssetAmount(0, "ETH")).toBe("0 ETH");
    expect(formatAssetAmount(null, "ETH")).toBe("—");
  });

  it("says how long ago in the largest whole unit", () => {
    const now = Date.parse("2026-11-23T12:00:00Z");
    expect(formatAge("2026-11-23T11:59:30Z", now)).toBe("just now");
    expect(formatAge("2026-11-23T12:00:30Z", now)).toBe("just now"); // a clock slightly ahead
    expect(formatAge("2026-11-23T11:45:00Z", now)).toBe("15 min ago");
    expect(formatAge("2026-11-23T09:00:00Z", now)).toBe("3 h ago");
    expect(formatAge("2026-11-20T12:00:00Z", now)).toBe("3 days ago");
  });
  it("formats an age in seconds", () => {
    expect([null, 4.9, 59, 60, 125, 7_200, 7_300, 200_000].map(formatSeconds)).toEqual(["—", "4 s", "59 s", "1 min", "2 min 5 s", "2 h", "2 h 1 min", "2 days"]);
  });
});

