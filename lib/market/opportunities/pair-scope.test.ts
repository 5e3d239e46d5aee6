import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { partialFromJson, partialToJson, replacesPair } from "./pair-scope";

describe("pair scope", () => {
  it("replaces every pair of a whole asset, and of an asset in part only those with a leg on its venues", () => {
    const bases = new Set(["BTC", "ETH"]);
    const partial = new Map([["ETH", new Set(["okx"])]]);
    expect(replacesPair(bases, partial, "BTC", "bybit", "gate")).toBe(true);
    expect(replacesPair(bases, partial, "ETH", "okx", "gate")).toBe(true);
    expect(replacesPair(bases, partial, "ETH", "bybit", "okx")).toBe(true);
    expect(replacesPair(bases, partial, "ETH", "bybit", "gate")).toBe(false);
    expect(replacesPair(bases, partial, "SOL", "okx", "gate")).toBe(false);
  });

  it("stores the venues as sorted JSON, none as null, and refuses a stored value of another shape", () => {
    const partial = new Map([["ETH", new Set(["okx", "binance"])]]);
    const text = partialToJson(partial);
    expect(text).toBe('{"ETH":["binance","okx"]}');
    expect(partialFromJson(JSON.parse(text!))).toEqual(new Map([["ETH", new Set(["binance", "okx"])]]));
    expect(partialToJson(new Map())).toBeNull();
    expect(partialFromJson(null)).toEqual(new Map());
    expect(() => partialFromJson(["ETH"])).toThrow(AppError);
    expect(() => partialFromJson({ ETH: "okx" })).toThrow(/ETH/);
  });
});
