import { DEFAULT_TAKER_FEE } from "@/lib/market/model/apr";
import { roundTo } from "@/lib/round";

export interface CostInput {
  notionalUsd: number;
  /** Decimal taker fees the venues state; null when a venue did not. */
  longTakerFee: number | null;
  shortTakerFee: number | null;
  /** Overrides both venues' taker fee, in basis points per fill. */
  feeBps?: number;
  /** Slippage per fill in basis points; default 0. */
  slippageBps?: number;
}

export interface TradeCosts {
  longTakerFee: number;
  shortTakerFee: number;
  /** Fees and slippage of opening both legs. */
  openUsd: number;
  /** Fees and slippage of closing both legs. */
  closeUsd: number;
  feesUsd: number;
  slippageUsd: number;
}

/**
 * Costs of the four fills (open and close, long and short), each on the notional of one leg:
 * fee = 2 × notional × (long fee + short fee), slippage = 4 × notional × slippage.
 */
export function tradeCosts(input: CostInput): TradeCosts {
  const override = input.feeBps === undefined ? undefined : input.feeBps / 10_000;
  const longTakerFee = override ?? input.longTakerFee ?? DEFAULT_TAKER_FEE;
  const shortTakerFee = override ?? input.shortTakerFee ?? DEFAULT_TAKER_FEE;
  const slip = (input.slippageBps ?? 0) / 10_000;
  const oneWayFees = input.notionalUsd * (longTakerFee + shortTakerFee);
  const oneWaySlippage = 2 * input.notionalUsd * slip;
  return {
    longTakerFee,
    shortTakerFee,
    openUsd: oneWayFees + oneWaySlippage,
    closeUsd: oneWayFees + oneWaySlippage,
    feesUsd: 2 * oneWayFees,
    slippageUsd: 2 * oneWaySlippage,
  };
}

/** Money rounded to a millionth of a dollar, so float noise (0.30000000000000004) does not reach the API. */
export function roundUsd(value: number): number {
  return roundTo(value, 6);
}

export function netAprPct(netPnlUsd: number, notionalUsd: number, holdingDays: number): number {
  return roundTo((netPnlUsd / notionalUsd) * (365 / holdingDays) * 100, 6);
}

/** The money lines every simulation result carries, from its funding and the four fills' costs. */
export function pnlSummary(fundingUsd: number, costs: TradeCosts, notionalUsd: number, holdingDays: number) {
  const net = fundingUsd - costs.feesUsd - costs.slippageUsd;
  return {
    funding_income_usd: roundUsd(fundingUsd),
    fees_usd: roundUsd(costs.feesUsd),
    slippage_usd: roundUsd(costs.slippageUsd),
    net_pnl_usd: roundUsd(net),
    net_apr: netAprPct(net, notionalUsd, holdingDays),
  };
}
