import { roundUsd, tradeCosts } from "@/lib/sim/trade-costs";

export interface AccrualSettlement {
  /** Epoch milliseconds. */
  time: number;
  /** Decimal rate applied at `time`. */
  rate: number;
}

export interface AccrualLeg {
  exchange: string;
  market: string;
  /** Decimal taker fee the venue states; null falls back to DEFAULT_TAKER_FEE. */
  takerFee: number | null;
  /** The leg's settlements; those outside (openedAt, asOf] are ignored. */
  settlements: readonly AccrualSettlement[];
}

export interface AccrualInput {
  notionalUsd: number;
  /** Epoch milliseconds the position was opened. */
  openedAt: number;
  /** Epoch milliseconds the accrual runs to: now for an open position, its closing time for a closed one. */
  asOf: number;
  long: AccrualLeg;
  short: AccrualLeg;
}

// Type aliases, not interfaces: an accrual is stored as JSON, which needs their implicit index signature.
export type LegAccrual = {
  exchange: string;
  market: string;
  taker_fee: number;
  settlements: number;
  funding_income_usd: number;
}

export type Accrual = {
  as_of: string;
  long: LegAccrual;
  short: LegAccrual;
  funding_income_usd: number;
  fees_usd: number;
  net_pnl_usd: number;
};

/**
 * Funding a position earned from opening to `asOf`: each settlement strictly after opening and no
 * later than `asOf` pays the short leg +rate × notional and the long leg −rate × notional. Fees are
 * the four taker fills of opening and closing both legs (lib/sim's trade costs), so the net P&L is
 * what closing now would realise.
 */
export function accrue(input: AccrualInput): Accrual {
  const { notionalUsd, openedAt, asOf } = input;
  const costs = tradeCosts({ notionalUsd, longTakerFee: input.long.takerFee, shortTakerFee: input.short.takerFee });
  const leg = (l: AccrualLeg, side: 1 | -1, takerFee: number): LegAccrual => {
    const own = l.settlements.filter((s) => s.time > openedAt && s.time <= asOf);
    return {
      exchange: l.exchange,
      market: l.market,
      taker_fee: takerFee,
      settlements: own.length,
      funding_income_usd: roundUsd(own.reduce((sum, s) => sum + side * s.rate * notionalUsd, 0)),
    };
  };
  const long = leg(input.long, -1, costs.longTakerFee);
  const short = leg(input.short, 1, costs.shortTakerFee);
  const funding = long.funding_income_usd + short.funding_income_usd;
  return {
    as_of: new Date(asOf).toISOString(),
    long,
    short,
    funding_income_usd: roundUsd(funding),
    fees_usd: roundUsd(costs.feesUsd),
    net_pnl_usd: roundUsd(funding - costs.feesUsd),
  };
}

export interface PortfolioTotals {
  positions: number;
  open_positions: number;
  /** Notional of the open positions. */
  open_notional_usd: number;
  funding_income_usd: number;
  fees_usd: number;
  /** Open positions' P&L if closed now. */
  unrealised_pnl_usd: number;
  /** Closed positions' P&L. */
  realised_pnl_usd: number;
  net_pnl_usd: number;
}

/** Sums over positions, open ones counted as unrealised and closed ones as realised. */
export function totals(positions: readonly { open: boolean; notionalUsd: number; accrual: Accrual }[]): PortfolioTotals {
  const sum = (pick: (p: (typeof positions)[number]) => number, only?: boolean) =>
    roundUsd(positions.filter((p) => only === undefined || p.open === only).reduce((s, p) => s + pick(p), 0));
  const unrealised = sum((p) => p.accrual.net_pnl_usd, true);
  const realised = sum((p) => p.accrual.net_pnl_usd, false);
  return {
    positions: positions.length,
    open_positions: positions.filter((p) => p.open).length,
    open_notional_usd: sum((p) => p.notionalUsd, true),
    funding_income_usd: sum((p) => p.accrual.funding_income_usd),
    fees_usd: sum((p) => p.accrual.fees_usd),
    unrealised_pnl_usd: unrealised,
    realised_pnl_usd: realised,
    net_pnl_usd: roundUsd(unrealised + realised),
  };
}
