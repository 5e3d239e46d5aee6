import { describe, expect, it } from "vitest";
import { annualisedBorrowPct } from "./spot-leg";

describe("annualisedBorrowPct", () => {
  it("annualises each period simply, as funding is", () => {
    // Binance's documented next-hourly rate 0.00000571 is about 5.0 % a year.
    expect(annualisedBorrowPct(0.00000571, "hour")).toBeCloseTo(5.002, 3);
    // Binance's crossMarginData: 0.00026125 a day × 365 = 9.535625 % (it states 0.0953 a year, rounded).
    expect(annualisedBorrowPct(0.00026125, "day")).toBeCloseTo(9.535625, 6);
    expect(annualisedBorrowPct(0.05, "year")).toBe(5);
  });
});
