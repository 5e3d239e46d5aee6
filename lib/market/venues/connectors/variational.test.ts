import { describe, expect, it } from "vitest";
import { variationalRate, variationalSpreadCost } from "./variational";

describe("variationalRate", () => {
  it("turns the annualised rate into the rate of one settlement of the listing's interval", () => {
    // The crypto interest component at rest: 0.00125 % an hour, 0.01 % per 8 hours.
    expect(variationalRate(0.1095, 8)).toBe(0.0001);
    expect(variationalRate(0.1095, 1)).toBe(0.0000125);
    // The documented pre-IPO rate: 0.005 % every 8 hours.
    expect(variationalRate(0.05475, 8)).toBe(0.00005);
    expect(variationalRate(-85.536623, 1)).toBe(-0.0097644546803653);
  });

  it("is undefined when either figure is absent and NaN when either is garbled", () => {
    expect(variationalRate(undefined, 8)).toBeUndefined();
    expect(variationalRate(0.1, undefined)).toBeUndefined();
    expect(variationalRate(Number.NaN, 8)).toBeNaN();
    expect(variationalRate(0.1, Number.NaN)).toBeNaN();
  });
});

describe("variationalSpreadCost", () => {
  it("charges half the base spread, as a fraction", () => {
    expect(variationalSpreadCost(1)).toBe(0.00005);
    expect(variationalSpreadCost(14.05)).toBe(0.0007025);
    expect(variationalSpreadCost(0)).toBe(0);
  });

  it("has no cost for an absent, garbled or negative spread", () => {
    expect(variationalSpreadCost(undefined)).toBeUndefined();
    expect(variationalSpreadCost(Number.NaN)).toBeUndefined();
    expect(variationalSpreadCost(-1)).toBeUndefined();
  });
});
