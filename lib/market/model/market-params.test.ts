import { describe, expect, it } from "vitest";
import { exchangeListParam, exchangeParam } from "./market-params";

describe("the exchange query parameters", () => {
  it("take a HIP-3 dex's id, colon and all, alone and in a list", () => {
    expect(exchangeParam().parse("hyperliquid:xyz")).toBe("hyperliquid:xyz");
    expect(exchangeListParam().parse("okx,hyperliquid:km,hyperliquid")).toEqual(["hyperliquid", "hyperliquid:km", "okx"]);
  });

  it("refuse a dex that is not a venue and a colon without a dex", () => {
    expect(exchangeParam().safeParse("hyperliquid:abcd").success).toBe(false);
    expect(exchangeListParam().safeParse("hyperliquid:abcd").success).toBe(false);
    expect(exchangeListParam().safeParse("hyperliquid:,okx").success).toBe(false);
  });
});
