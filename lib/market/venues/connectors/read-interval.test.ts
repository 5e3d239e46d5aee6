import { describe, expect, it } from "vitest";
import { intervalBetweenSettlements, statedInterval, statedMinutes } from "./read-interval";

const EIGHT = Date.UTC(2026, 10, 20, 8);
const HOUR = 3_600_000;

describe("statedInterval", () => {
  it("is the venue's own hours, or null where its field gave none", () => {
    expect(statedInterval(4)).toEqual({ hours: 4, source: "venue" });
    expect(statedInterval(null)).toBeNull();
  });
});

describe("statedMinutes", () => {
  it("is the venue's minutes in whole hours, as a number or a numeric string", () => {
    expect(statedMinutes(480)).toEqual({ hours: 8, source: "venue" });
    expect(statedMinutes("60")).toEqual({ hours: 1, source: "venue" });
  });

  it("is null when the minutes are missing, garbled, not positive or not whole hours", () => {
    for (const value of [undefined, null, "", "soon", 0, -480, 90, Number.NaN]) expect(statedMinutes(value), String(value)).toBeNull();
  });
});

describe("intervalBetweenSettlements", () => {
  it("is the whole hours between the current settlement and the next, as numbers or numeric strings", () => {
    expect(intervalBetweenSettlements(EIGHT, EIGHT + 8 * HOUR)).toEqual({ hours: 8, source: "schedule" });
    expect(intervalBetweenSettlements(String(EIGHT), String(EIGHT + 2 * HOUR))).toEqual({ hours: 2, source: "schedule" });
  });

  it("is null when a time is missing, garbled, out of order or not a whole number of hours apart", () => {
    expect(intervalBetweenSettlements(undefined, EIGHT)).toBeNull();
    expect(intervalBetweenSettlements(EIGHT, "")).toBeNull();
    expect(intervalBetweenSettlements(EIGHT, "soon")).toBeNull();
    expect(intervalBetweenSettlements(EIGHT + HOUR, EIGHT)).toBeNull();
    expect(intervalBetweenSettlements(EIGHT, EIGHT + 90 * 60_000)).toBeNull();
  });
});
