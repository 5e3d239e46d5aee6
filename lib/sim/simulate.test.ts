import { describe, expect, it } from "vitest";
import { simulateHistorical, type HistoricalLeg } from "./historical";
import { simulateProjected, type ProjectedLeg } from "./projected";
import { simulationResultSchema } from "./result-schema";
import { tradeCosts } from "./trade-costs";

const leg = (exchange: string, fundingRate: number, intervalHours: number, takerFee: number | null = null): ProjectedLeg => ({
  exchange,
  market: "BTC/USDT:USDT",
  fundingRate,
  intervalHours,
  takerFee,
});

describe("tradeCosts", () => {
  it("charges four fills: each leg's taker fee on open and close, slippage on all four", () => {
    const costs = tradeCosts({ notionalUsd: 10_000, longTakerFee: 0.0005, shortTakerFee: null, slippageBps: 3 });
    // 2 × 10 000 × (0.0005 + 0.0006 default) = 22; 4 × 10 000 × 0.0003 = 12.
    expect(costs.shortTakerFee).toBe(0.0006);
    expect(costs.feesUsd).toBeCloseTo(22, 9);
    expect(costs.slippageUsd).toBeCloseTo(12, 9);
    expect(costs.openUsd + costs.closeUsd).toBeCloseTo(34, 9);
  });

  it("lets fee_bps replace both venues' fees", () => {
    const costs = tradeCosts({ notionalUsd: 1_000, longTakerFee: 0.0002, shortTakerFee: 0.0009, feeBps: 0 });
    expect(costs).toMatchObject({ longTakerFee: 0, shortTakerFee: 0, feesUsd: 0, slippageUsd: 0 });
  });
});

describe("simulateProjected", () => {
  it("honours each venue's interval: an 8h long leg beside a 1h short leg", () => {
    const result = simulateProjected(leg("binance", 0.0001, 8, 0.0005), leg("hyperliquid", 0.00005, 1, 0.00035), {
      notionalUsd: 10_000,
      holdingDays: 2,
    });
    // Long: 48/8 = 6 settlements × −0.0001 × 10 000 = −6. Short: 48 × 0.00005 × 10 000 = 24.
    expect(result.long).toMatchObject({ settlements: 6, funding_income_usd: -6, taker_fee: 0.0005, funding_interval_hours: 8 });
    expect(result.short).toMatchObject({ settlements: 48, funding_income_usd: 24, taker_fee: 0.00035, funding_interval_hours: 1 });
    // Fees: 2 × 10 000 × (0.0005 + 0.00035) = 17; net 18 − 17 = 1; 1/10 000 × 365/2 × 100 = 1.825 %.
    expect(result).toMatchObject({ funding_income_usd: 18, fees_usd: 17, slippage_usd: 0, net_pnl_usd: 1, net_apr: 1.825 });
    // 9 $/day (10 000 × (0.0012 − 0.0003)) pays 17 in 1.8889 days.
    expect(result.break_even_days).toBe(1.8889);
    expect(result).toMatchObject({ mode: "projected", daily: null, worst_drawdown_usd: null, paid_share: null, from: null });
    expect(simulationResultSchema.parse(result)).toEqual(result);
  });

  it("pays a long leg with negative funding and charges a short leg with negative funding", () => {
    const result = simulateProjected(leg("okx", -0.0002, 8), leg("bybit", -0.00005, 4), {
      notionalUsd: 1_000,
      holdingDays: 3,
      feeBps: 5,
      slippageBps: 2,
    });
    // Long: 9 × 0.0002 × 1000 = +1.8; short: 18 × −0.00005 × 1000 = −0.9.
    expect(result.long.funding_income_usd).toBeCloseTo(1.8, 9);
    expect(result.short.funding_income_usd).toBeCloseTo(-0.9, 9);
    expect(result.funding_income_usd).toBeCloseTo(0.9, 9);
    // Fees 4 × 1000 × 0.0005 = 2, slippage 4 × 1000 × 0.0002 = 0.8, net −1.9.
    expect(result.fees_usd).toBeCloseTo(2, 9);
    expect(result.slippage_usd).toBeCloseTo(0.8, 9);
    expect(result.net_pnl_usd).toBeCloseTo(-1.9, 9);
    expect(result.net_apr).toBeCloseTo(-23.116667, 6);
    // 0.3 $/day pays 2.8 in 9.3333 days, beyond the holding period but not never.
    expect(result.break_even_days).toBe(9.3333);
  });

  it("reports fees larger than income as a loss, and never breaking even when funding does not pay", () => {
    const loss = simulateProjected(leg("binance", 0, 8), leg("bybit", 0.00001, 8), { notionalUsd: 100_000, holdingDays: 1 });
    // Default fee 0.0006 per fill: 4 × 100 000 × 0.0006 = 240 against 3 × 1 = 3 of funding.
    expect(loss).toMatchObject({ funding_income_usd: 3, fees_usd: 240, net_pnl_usd: -237, net_apr: -86.505, break_even_days: 80 });
    const flat = simulateProjected(leg("binance", 0.0001, 8), leg("bybit", 0.0001, 8), { notionalUsd: 100, holdingDays: 7 });
    expect(flat.break_even_days).toBeNull();
    const free = simulateProjected(leg("binance", 0.0001, 8), leg("bybit", 0.0001, 8), { notionalUsd: 100, holdingDays: 7, feeBps: 0 });
    expect(free.break_even_days).toBe(0);
  });

  it("counts only whole settlements inside the holding period", () => {
    const result = simulateProjected(leg("gate", 0, 8), leg("bitget", 0.001, 16), { notionalUsd: 100, holdingDays: 1, feeBps: 0 });
    expect(result.short.settlements).toBe(1);
    expect(result.long.settlements).toBe(3);
  });
});

describe("simulateHistorical", () => {
  const to = new Date("2026-11-20T00:00:00.000Z");
  const start = to.getTime() - 2 * 86_400_000;
  const at = (hours: number) => start + hours * 3_600_000;
  const history = (exchange: string, rows: [number, number][], intervalHours: number): HistoricalLeg => ({
    exchange,
    market: "ETH/USDT:USDT",
    takerFee: 0.0005,
    settlements: rows.map(([hours, rate]) => ({ time: at(hours), rate, intervalHours })),
  });

  it("replays the window's settlements into a daily series, drawdown and paid share", () => {
    const long = history(
      "binance",
      [[0, 0.5], [8, 0.0001], [16, 0.0001], [24, -0.0001], [32, 0], [40, 0], [48, 0], [56, 0.5]],
      8,
    );
    const short = history("bybit", [[12, 0.0005], [36, 0.0002]], 1);
    const result = simulateHistorical(long, short, { notionalUsd: 10_000, holdingDays: 2, feeBps: 1 }, to);
    // The settlements at the opening instant and after the end are outside (from, to].
    expect(result.long).toMatchObject({ settlements: 6, funding_income_usd: -1, funding_rate: null, funding_interval_hours: 8 });
    expect(result.short).toMatchObject({ settlements: 2, funding_income_usd: 7, funding_interval_hours: 1 });
    // Fees 4 × 10 000 × 0.0001 = 4 (2 at open, 2 at close); funding 6; net 2.
    expect(result).toMatchObject({ funding_income_usd: 6, fees_usd: 4, net_pnl_usd: 2, net_apr: 3.65 });
    expect(result.daily).toEqual([
      { date: "2026-11-19T00:00:00.000Z", funding_income_usd: 4, net_pnl_usd: 2 },
      { date: "2026-11-20T00:00:00.000Z", funding_income_usd: 6, net_pnl_usd: 2 },
    ]);
    // P&L: 0 → −2 (open) → −3 (8h): a 3 fall; later 4 → 2 at close is only 2.
    expect(result.worst_drawdown_usd).toBe(3);
    // Funding reached the 4 of costs at 12h.
    expect(result.break_even_days).toBe(0.5);
    // 3 of 8 settlements paid the position (12h, 24h, 36h); the zero-rate ones did not.
    expect(result.paid_share).toBe(0.375);
    expect(result).toMatchObject({ from: "2026-11-18T00:00:00.000Z", to: "2026-11-20T00:00:00.000Z", mode: "historical" });
    expect(simulationResultSchema.parse(result)).toEqual(result);
  });

  it("never breaks even when fees outweigh the replayed funding", () => {
    const long = history("okx", [[8, -0.00001], [16, 0.00002]], 8);
    const short = history("gate", [], 8);
    const result = simulateHistorical(long, short, { notionalUsd: 1_000, holdingDays: 2 }, to);
    // Funding 0.01 − 0.02 = −0.01; fees 2 × 1000 × 0.001 = 2.
    expect(result.funding_income_usd).toBeCloseTo(-0.01, 9);
    expect(result.net_pnl_usd).toBeCloseTo(-2.01, 9);
    expect(result.break_even_days).toBeNull();
    expect(result.paid_share).toBe(0.5);
    // 0 → −1 (open) → −0.99 → −1.01 → −2.01 (close): the whole loss is the fall from the opening 0.
    expect(result.worst_drawdown_usd).toBeCloseTo(2.01, 9);
    expect(result.short.funding_interval_hours).toBeNull();
  });

  it("has no paid share without settlements", () => {
    const result = simulateHistorical(history("okx", [], 8), history("gate", [], 8), { notionalUsd: 1_000, holdingDays: 1 }, to);
    expect(result.paid_share).toBeNull();
    expect(result.daily).toHaveLength(1);
  });
});
