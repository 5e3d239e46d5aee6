import { roundTo } from "@/lib/round";
import type { LiquidationAtEntry, SimulationResult } from "./result-schema";
import { pnlSummary, roundUsd, tradeCosts, type TradeCosts } from "./trade-costs";

export interface ProjectedLeg {
  exchange: string;
  market: string;
  /** Decimal rate per interval, held constant. */
  fundingRate: number;
  intervalHours: number;
  /** Decimal taker fee the venue states; null falls back to DEFAULT_TAKER_FEE. */
  takerFee: number | null;
}

export interface SimulationParams {
  notionalUsd: number;
  holdingDays: number;
  feeBps?: number;
  slippageBps?: number;
  /** The four fills' costs from an order-book quote (lib/sim/quote-costs.ts), in place of the fees and slippage above. */
  costs?: TradeCosts;
  /** That quote's liquidation at entry, reported as it is. */
  entryQuote?: LiquidationAtEntry;
}

/**
 * Current rates held constant over the holding period. Each leg settles on its own venue's
 * interval: floor(holding hours / interval) whole settlements, so a 1h leg settles 24 times a day
 * where an 8h leg settles 3 times. The short leg earns +rate × notional per settlement, the long
 * leg −rate × notional (a negative long rate pays the position).
 */
export function simulateProjected(long: ProjectedLeg, short: ProjectedLeg, params: SimulationParams): SimulationResult {
  const { notionalUsd, holdingDays } = params;
  const costs = params.costs ?? tradeCosts({ ...params, longTakerFee: long.takerFee, shortTakerFee: short.takerFee });
  const hours = holdingDays * 24;
  const leg = (l: ProjectedLeg, side: 1 | -1, takerFee: number) => {
    const settlements = Math.floor(hours / l.intervalHours);
    return {
      exchange: l.exchange,
      market: l.market,
      funding_rate: l.fundingRate,
      funding_interval_hours: l.intervalHours,
      taker_fee: takerFee,
      settlements,
      funding_income_usd: roundUsd(side * l.fundingRate * notionalUsd * settlements),
    };
  };
  const longResult = leg(long, -1, costs.longTakerFee);
  const shortResult = leg(short, 1, costs.shortTakerFee);
  const funding = longResult.funding_income_usd + shortResult.funding_income_usd;
  const totalCosts = costs.feesUsd + costs.slippageUsd;
  // Funding accrues at this rate per day while rates hold; break-even is when it has paid the costs.
  const perDay = notionalUsd * ((short.fundingRate * 24) / short.intervalHours - (long.fundingRate * 24) / long.intervalHours);
  const breakEven = totalCosts === 0 ? 0 : perDay > 0 ? roundTo(totalCosts / perDay, 4) : null;
  return {
    mode: "projected",
    notional_usd: notionalUsd,
    holding_days: holdingDays,
    long: longResult,
    short: shortResult,
    ...pnlSummary(funding, costs, notionalUsd, holdingDays),
    costs: params.costs ? "order_books" : "fixed",
    entry_quote: params.entryQuote ?? null,
    break_even_days: breakEven,
    from: null,
    to: null,
    daily: null,
    worst_drawdown_usd: null,
    paid_share: null,
  };
}
