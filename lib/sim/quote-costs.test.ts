import { describe, expect, it } from "vitest";
import type { QuoteFigures } from "@/lib/quote/quote-schema";
import { simulateHistorical } from "./historical";
import { simulateProjected } from "./projected";
import { liquidationAtEntry, quoteTradeCosts } from "./quote-costs";
import { simulationResultSchema } from "./result-schema";

// The parts of a quote the simulations read; the rest of its figures play no part here.
const leg = (fee: number, feesUsd: number, slippageUsd: number, liquidation: number | null) => ({
  taker_fee: fee,
  fees_usd: feesUsd,
  slippage_usd: slippageUsd,
  entry: { slippage_bps: 1.5 },
  liquidation: { price: liquidation, distance_pct: liquidation === null ? null : 33.3, unavailable_reason: liquidation === null ? "not_published" : null },
});
const figures = {
  leverage: 3,
  cost_bps: 12.5,
  // Entry 6 + exit 6.5 = 12.5 on 10 000: fees 4 + 6 = 10, slippage 1 + 1.5 = 2.5.
  entry_cost_usd: 6,
  exit_cost_usd: 6.5,
  long: leg(0.0002, 4, 1, 40_000),
  short: leg(0.0003, 6, 1.5, null),
} as unknown as QuoteFigures;

describe("quoteTradeCosts", () => {
  it("takes the quote's entry and exit, its fees and its slippage as the four fills' costs", () => {
    expect(quoteTradeCosts(figures)).toEqual({ longTakerFee: 0.0002, shortTakerFee: 0.0003, openUsd: 6, closeUsd: 6.5, feesUsd: 10, slippageUsd: 2.5 });
  });
});

describe("simulations costed from a quote", () => {
  const params = { notionalUsd: 10_000, holdingDays: 2, costs: quoteTradeCosts(figures), entryQuote: liquidationAtEntry(figures, new Date("2026-11-24T07:00:00Z")) };
  const projectedLeg = (exchange: string, rate: number) => ({ exchange, market: "BTC/USDT:USDT", fundingRate: rate, intervalHours: 8, takerFee: 0.0009 });

  it("projects with the quote's costs, not the venues' fee, and reports the liquidation at entry", () => {
    const result = simulateProjected(projectedLeg("binance", 0), projectedLeg("okx", 0.0001), params);
    // Funding 6 settlements × 0.0001 × 10 000 = 6; costs 12.5; net −6.5.
    expect(result).toMatchObject({ funding_income_usd: 6, fees_usd: 10, slippage_usd: 2.5, net_pnl_usd: -6.5, costs: "order_books" });
    expect(result.long.taker_fee).toBe(0.0002);
    // 3 $/day pays 12.5 in 4.1667 days.
    expect(result.break_even_days).toBe(4.1667);
    expect(result.entry_quote).toEqual({
      quoted_at: "2026-11-24T07:00:00.000Z",
      leverage: 3,
      cost_bps: 12.5,
      long: { price: 40_000, distance_pct: 33.3, unavailable_reason: null, entry_slippage_bps: 1.5 },
      short: { price: null, distance_pct: null, unavailable_reason: "not_published", entry_slippage_bps: 1.5 },
    });
    expect(simulationResultSchema.parse(result)).toEqual(result);
  });

  it("replays history opening at the quote's entry cost and closing at its exit cost", () => {
    const to = new Date("2026-11-20T00:00:00Z");
    const none = { exchange: "binance", market: "BTC/USDT:USDT", takerFee: null, settlements: [] };
    const result = simulateHistorical(none, { ...none, exchange: "okx" }, params, to);
    expect(result.daily!.map((d) => d.net_pnl_usd)).toEqual([-6, -12.5]);
    expect(result).toMatchObject({ costs: "order_books", worst_drawdown_usd: 12.5 });
  });

  it("keeps fixed costs, and says so, when no quote is given", () => {
    const result = simulateProjected(projectedLeg("binance", 0), projectedLeg("okx", 0.0001), { notionalUsd: 10_000, holdingDays: 2 });
    expect(result).toMatchObject({ costs: "fixed", entry_quote: null, fees_usd: 36 });
  });
});
