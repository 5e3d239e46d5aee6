import { describe, expect, it } from "vitest";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { itemsOf } from "../opportunities/opportunity-columns";
import { rankWithHistory, type MarketHistory } from "./market-history";

const history: MarketHistory = {
  intervalChanges: new Map(),
  settlements: new Map(),
  averages: { sums: new Map(), weekFrom: 0, dayFrom: 0, to: Number.MAX_SAFE_INTEGER },
  persistence: null,
};

describe("rankWithHistory", () => {
  // What a micro-batch ranks on the round's history: the round's bound goes with it.
  const markets = [
    makeSnapshot({ exchange: "binance", markPrice: 97_000, fundingRate: 0.0001 }),
    makeSnapshot({ exchange: "okx", markPrice: 97_020, fundingRate: 0.0002 }),
    // A venue whose BTC mark is a bundle read as one coin, or another token: far from the others.
    makeSnapshot({ exchange: "gate", markPrice: 970, fundingRate: 0.003 }),
  ];

  it("holds the legs to the history's price bound, as the round that made it did", () => {
    const ids = (h: MarketHistory) => itemsOf(rankWithHistory(markets, h)).map((o) => o.id).sort();
    expect(ids({ ...history, priceBound: 0.05 })).toEqual(["BTC-binance-okx"]);
    expect(ids(history)).toEqual(["BTC-binance-gate", "BTC-binance-okx", "BTC-okx-gate"]);
  });
});
