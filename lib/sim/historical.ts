import { roundTo } from "@/lib/round";
import type { SimulationParams } from "./projected";
import type { SimulationResult } from "./result-schema";
import { pnlSummary, roundUsd, tradeCosts } from "./trade-costs";

const DAY_MS = 86_400_000;

export interface Settlement {
  /** Epoch milliseconds. */
  time: number;
  /** Decimal rate applied at `time`. */
  rate: number;
  intervalHours: number | null;
}

export interface HistoricalLeg {
  exchange: string;
  market: string;
  takerFee: number | null;
  /** The leg's settlements; those outside (from, to] are ignored. */
  settlements: readonly Settlement[];
}

/**
 * Replays recorded settlements over the `holdingDays` days ending at `to`: the position opens at
 * `from` = to − holdingDays (paying the opening fills), collects every settlement in (from, to]
 * and closes at `to` (paying the closing fills). The daily series is cumulative P&L at the end of
 * each day; the drawdown is the largest fall from the running high of that P&L, checked after
 * every settlement and starting at 0 before opening, so opening costs count as a fall.
 */
export function simulateHistorical(long: HistoricalLeg, short: HistoricalLeg, params: SimulationParams, to: Date): SimulationResult {
  const { notionalUsd, holdingDays } = params;
  const end = to.getTime();
  const start = end - holdingDays * DAY_MS;
  const costs = params.costs ?? tradeCosts({ ...params, longTakerFee: long.takerFee, shortTakerFee: short.takerFee });
  const totalCosts = costs.feesUsd + costs.slippageUsd;

  const events = [
    ...inWindow(long.settlements, start, end).map((s) => ({ time: s.time, income: -s.rate * notionalUsd })),
    ...inWindow(short.settlements, start, end).map((s) => ({ time: s.time, income: s.rate * notionalUsd })),
  ].sort((a, b) => a.time - b.time);

  let funding = 0;
  let peak = 0;
  let pnl = -costs.openUsd;
  let drawdown = peak - pnl;
  let breakEven: number | null = totalCosts === 0 ? 0 : null;
  let paid = 0;
  const daily: { date: string; funding_income_usd: number; net_pnl_usd: number }[] = [];
  let next = 0;
  for (let day = 1; day <= holdingDays; day += 1) {
    const dayEnd = start + day * DAY_MS;
    for (; next < events.length && events[next]!.time <= dayEnd; next += 1) {
      const event = events[next]!;
      funding += event.income;
      pnl += event.income;
      if (event.income > 0) paid += 1;
      if (breakEven === null && funding >= totalCosts) breakEven = roundTo((event.time - start) / DAY_MS, 4);
      peak = Math.max(peak, pnl);
      drawdown = Math.max(drawdown, peak - pnl);
    }
    if (day === holdingDays) {
      pnl -= costs.closeUsd;
      drawdown = Math.max(drawdown, peak - pnl);
    }
    daily.push({ date: new Date(dayEnd).toISOString(), funding_income_usd: roundUsd(funding), net_pnl_usd: roundUsd(pnl) });
  }

  const legResult = (l: HistoricalLeg, side: 1 | -1, takerFee: number) => {
    const own = inWindow(l.settlements, start, end);
    return {
      exchange: l.exchange,
      market: l.market,
      funding_rate: null,
      funding_interval_hours: own.findLast((s) => s.intervalHours !== null)?.intervalHours ?? null,
      taker_fee: takerFee,
      settlements: own.length,
      funding_income_usd: roundUsd(own.reduce((sum, s) => sum + side * s.rate * notionalUsd, 0)),
    };
  };
  return {
    mode: "historical",
    notional_usd: notionalUsd,
    holding_days: holdingDays,
    long: legResult(long, -1, costs.longTakerFee),
    short: legResult(short, 1, costs.shortTakerFee),
    ...pnlSummary(funding, costs, notionalUsd, holdingDays),
    costs: params.costs ? "order_books" : "fixed",
    entry_quote: params.entryQuote ?? null,
    break_even_days: breakEven,
    from: new Date(start).toISOString(),
    to: new Date(end).toISOString(),
    daily,
    worst_drawdown_usd: roundUsd(drawdown),
    paid_share: events.length === 0 ? null : roundTo(paid / events.length, 6),
  };
}

function inWindow(settlements: readonly Settlement[], start: number, end: number): Settlement[] {
  return settlements.filter((s) => s.time > start && s.time <= end);
}
