import { describe, expect, it } from "vitest";
import { computeOpportunities } from "../apr";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { marketKey, withAverageAprs } from "./with-average-aprs";

describe("withAverageAprs", () => {
  const { opportunities } = computeOpportunities([
    makeSnapshot({ exchange: "binance", fundingRate: 0.0001 }),
    makeSnapshot({ exchange: "okx", fundingRate: 0.0003 }),
  ]);

  it("is the short leg's mean annualised funding minus the long leg's", () => {
    const averages = new Map([
      [marketKey("binance", "BTC/USDT:USDT"), { day: 10, week: 12.5 }],
      [marketKey("okx", "BTC/USDT:USDT"), { day: 25, week: 20 }],
    ]);
    const [item] = withAverageAprs(opportunities, averages);
    expect(item).toMatchObject({ id: "BTC-binance-okx", apr_1d_avg: 15, apr_7d_avg: 7.5 });
  });

  it("is null when either leg has no history in the window", () => {
    const averages = new Map([
      [marketKey("binance", "BTC/USDT:USDT"), { day: null, week: 12.5 }],
      [marketKey("okx", "BTC/USDT:USDT"), { day: 25, week: 20 }],
    ]);
    expect(withAverageAprs(opportunities, averages)[0]).toMatchObject({ apr_1d_avg: null, apr_7d_avg: 7.5 });
    expect(withAverageAprs(opportunities, new Map())[0]).toMatchObject({ apr_1d_avg: null, apr_7d_avg: null });
  });
});
