import { describe, expect, it } from "vitest";
import { computeOpportunities } from "./apr";
import { packItems, unpackItems } from "./opportunity-set-items";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";

const { opportunities } = computeOpportunities([
  makeSnapshot({ exchange: "binance", fundingRate: 0.0001, fundingIntervalHours: 8, markPrice: 100 }),
  makeSnapshot({ exchange: "okx", market: "BTC/USDT:USDT", fundingRate: -0.0002, fundingIntervalHours: 4, markPrice: 100.5 }),
]);

describe("a published set's stored items", () => {
  it("round-trip through the gzipped form, much smaller than the JSON", () => {
    const many = Array.from({ length: 500 }, (_, i) => ({ ...opportunities[0]!, id: `A${i}-binance-okx` }));
    const packed = packItems(many);
    expect(packed.length).toBeLessThan(JSON.stringify(many).length / 5);
    expect(unpackItems(packed)).toEqual(many);
  });

  it("read the plain JSON the migration carried over, and nothing as an empty set", () => {
    expect(unpackItems(new TextEncoder().encode(JSON.stringify(opportunities)))).toEqual(opportunities);
    expect(unpackItems(null)).toEqual([]);
  });

  it("refuse items that are not opportunities rather than serve them", () => {
    expect(() => unpackItems(new TextEncoder().encode('[{"id": "x"}]'))).toThrow();
  });
});
