import { describe, expect, it } from "vitest";
import { apexNextFunding, apexTradable } from "./apex";

const AT_0920 = Date.UTC(2026, 8, 12, 9, 20);

describe("apexNextFunding", () => {
  it("reads the ISO time recorded answers and ccxt's documented frame state", () => {
    expect(apexNextFunding("2022-08-26T08:00:00Z", AT_0920)).toBe(Date.UTC(2022, 7, 26, 8));
  });

  it("reads the docs' bare clock time as the next whole UTC hour only when it names that hour", () => {
    expect(apexNextFunding("10:00:00", AT_0920)).toBe(Date.UTC(2026, 8, 12, 10));
    // Just before midnight the next hour is 00:00 of the next day.
    expect(apexNextFunding("00:00:00", Date.UTC(2026, 8, 12, 23, 59))).toBe(Date.UTC(2026, 8, 13));
    expect(apexNextFunding("13:00:00", AT_0920)).toBeUndefined();
    expect(apexNextFunding("10:30:00", AT_0920)).toBeUndefined();
  });

  it("is unknown when absent and garbled (NaN, which refuses the row) otherwise", () => {
    expect(apexNextFunding(undefined, AT_0920)).toBeUndefined();
    expect(apexNextFunding("", AT_0920)).toBeUndefined();
    expect(apexNextFunding("soon", AT_0920)).toBeNaN();
    expect(apexNextFunding(36_000, AT_0920)).toBeNaN();
  });
});

describe("apexTradable", () => {
  it("refuses a contract that does not trade, does not settle funding, or is not launched", () => {
    expect(apexTradable({ info: { enableTrade: true, enableFundingSettlement: true, isPrelaunch: false } })).toBe(true);
    expect(apexTradable({ info: { enableTrade: false } })).toBe(false);
    expect(apexTradable({ info: { enableTrade: true, enableFundingSettlement: false } })).toBe(false);
    expect(apexTradable({ info: { enableTrade: true, isPrelaunch: true } })).toBe(false);
  });
});
