import { describe, expect, it } from "vitest";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { itemsOf } from "../opportunities/opportunity-columns";
import { countingTurns } from "@/tests/support/event-loop-turns";
import { wideMarket } from "@/tests/support/market/wide-market";
import { differingColumns } from "@/tests/support/market/differing-columns";
import { marketKey } from "../model/market-average";
import { rankWithHistory, rankWithHistoryInSlices, type MarketHistory } from "./market-history";

const history: MarketHistory = {
  intervalChanges: new Map(),
  settlements: new Map(),
  averages: { settled: new Map(), live: new Map(), weekFrom: 0, dayFrom: 0, to: Number.MAX_SAFE_INTEGER },
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

describe("rankWithHistoryInSlices", () => {
  it("ranks as rankWithHistory does, averages included, giving the event loop turns", async () => {
    const { snapshots } = wideMarket(200);
    // Sums for every other market: the round's own observations are added to them.
    const sums = new Map(snapshots.filter((_, i) => i % 2 === 0).map((s, i) => [marketKey(s.exchange, s.market), { dayApr: i % 13, daySamples: 2, weekApr: 40 + (i % 7), weekSamples: 9 }]));
    const withAverages: MarketHistory = { ...history, averages: { settled: sums, live: new Map(), weekFrom: 0, dayFrom: 0, to: Number.MAX_SAFE_INTEGER } };

    const { result, turns } = await countingTurns(() => rankWithHistoryInSlices(snapshots, withAverages, undefined, 0));

    expect(differingColumns(result, rankWithHistory(snapshots, withAverages))).toEqual([]);
    expect(itemsOf(result).some((o) => o.apr_1d_avg !== null)).toBe(true);
    // It pauses, as a round on the serving thread must.
    expect(turns).toBeGreaterThan(10);
  });
});
