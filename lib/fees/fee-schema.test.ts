import { describe, expect, it } from "vitest";
import { accountFeesUpdateSchema, parsePercentFee } from "./fee-schema";

describe("parsePercentFee", () => {
  it("reads percent into a decimal without float noise, and empty as clear", () => {
    expect(parsePercentFee("0.04")).toEqual({ fee: 0.0004 });
    expect(parsePercentFee(" 0.055 % ")).toEqual({ fee: 0.00055 });
    expect(parsePercentFee("1")).toEqual({ fee: 0.01 });
    expect(parsePercentFee("0")).toEqual({ fee: 0 });
    expect(parsePercentFee("")).toEqual({ fee: null });
  });
  it("refuses more than 1 %, negatives and words", () => {
    for (const text of ["1.01", "-0.01", "abc", "0.04.1"]) expect(parsePercentFee(text)).toHaveProperty("error");
  });
});

describe("accountFeesUpdateSchema", () => {
  it("takes decimals from 0 to 0.01 and null per known venue", () => {
    expect(accountFeesUpdateSchema.parse({ binance: 0.0004, okx: null })).toEqual({ binance: 0.0004, okx: null });
    expect(accountFeesUpdateSchema.safeParse({ binance: 0.011 }).success).toBe(false);
    expect(accountFeesUpdateSchema.safeParse({ nowhere: 0.0001 }).success).toBe(false);
    expect(accountFeesUpdateSchema.safeParse({}).success).toBe(false);
  });
});
