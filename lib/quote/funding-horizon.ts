const HOUR_MS = 3_600_000;

/** What a leg's funding over a horizon is worked out from: the leg's rates and schedule as listed. */
export interface FundingSchedule {
  /** Decimal rate of the current interval: paid at the next settlement. */
  rate: number;
  /** The venue's forecast, paid at every later settlement; null where the venue publishes none (the rate is held). */
  predictedRate: number | null;
  intervalHours: number;
  /** Epoch ms of the next settlement as the venue stated it; null when unknown. */
  nextFundingAt: number | null;
}

export interface Settlement {
  at: number;
  rate: number;
}

/**
 * The leg's settlements in (from, to]: one at its next settlement, then one every interval. A
 * stated next settlement already past (a recording, a venue a round behind) is rolled forward by
 * whole intervals, as the venue keeps settling on its schedule; with none stated, settlements are
 * taken at the UTC multiples of the interval, where the venues put them (`assumed: true`).
 *
 * The first settlement pays `rate`, the current interval's; every later one pays the venue's
 * forecast where it publishes one (OKX's next-period rate, Gate's indicative rate, Hyperliquid's
 * predicted rate), else `rate` again: the best estimate of a rate not yet formed is the venue's own.
 */
export function settlementsBetween(schedule: FundingSchedule, from: number, to: number): { settlements: Settlement[]; assumed: boolean } {
  const interval = schedule.intervalHours * HOUR_MS;
  if (!(interval > 0) || !(to > from)) return { settlements: [], assumed: schedule.nextFundingAt === null };
  const first = firstSettlementAfter(schedule, from);
  const later = schedule.predictedRate ?? schedule.rate;
  const settlements: Settlement[] = [];
  for (let at = first, k = 0; at <= to; at = first + ++k * interval) settlements.push({ at, rate: k === 0 ? schedule.rate : later });
  return { settlements, assumed: schedule.nextFundingAt === null };
}

/**
 * Epoch ms of the leg's first settlement strictly after `from`: its stated next settlement when that
 * is later, however far (an interval just shortened from 8 h to 1 h can leave the next one several
 * of the new intervals away), else the stated one rolled forward by whole intervals, else the first
 * UTC multiple of the interval. The interval must be positive.
 */
function firstSettlementAfter(schedule: FundingSchedule, from: number): number {
  const interval = schedule.intervalHours * HOUR_MS;
  const anchor = schedule.nextFundingAt ?? 0;
  return anchor > from ? anchor : anchor + (Math.floor((from - anchor) / interval) + 1) * interval;
}

/**
 * USD a leg earns from its settlements on a position of `notionalUsd`: the short leg receives
 * rate × notional at each one, the long leg pays it (a negative rate reverses both).
 */
export function fundingUsd(side: "long" | "short", notionalUsd: number, settlements: readonly Settlement[]): number {
  let sum = 0;
  for (const s of settlements) sum += s.rate;
  return (side === "short" ? 1 : -1) * notionalUsd * sum;
}

export interface FundedLeg {
  side: "long" | "short";
  notionalUsd: number;
  schedule: FundingSchedule;
}

/** How far ahead the breakeven is looked for: past a year, a trade that has not earned its costs back never will in a useful sense. */
export const BREAKEVEN_HORIZON_HOURS = 8_760;

/**
 * Hours from `from` until the pair's funding, settlement by settlement (both legs' merged in time
 * order, at the rates settlementsBetween gives), first covers `costUsd`; 0 when there is nothing
 * to cover, null when it does not within BREAKEVEN_HORIZON_HOURS (funding paying less than nothing
 * never does). The legs' settlements are walked in step rather than listed: an hourly pair that
 * never breaks even is 17,520 steps, without building a year of settlements per quote.
 */
export function breakevenHours(costUsd: number, legs: readonly FundedLeg[], from: number): number | null {
  if (costUsd <= 0) return 0;
  const to = from + BREAKEVEN_HORIZON_HOURS * HOUR_MS;
  const cursors = legs.flatMap((leg) => {
    if (!(leg.schedule.intervalHours > 0)) return [];
    const sign = leg.side === "short" ? 1 : -1;
    return [
      {
        at: firstSettlementAfter(leg.schedule, from),
        interval: leg.schedule.intervalHours * HOUR_MS,
        usd: sign * leg.notionalUsd * leg.schedule.rate,
        laterUsd: sign * leg.notionalUsd * (leg.schedule.predictedRate ?? leg.schedule.rate),
      },
    ];
  });
  let earned = 0;
  for (;;) {
    // The next instant any leg settles at; settlements of both legs at one instant count together.
    let at = Infinity;
    for (const c of cursors) at = Math.min(at, c.at);
    if (at > to) return null;
    for (const c of cursors) {
      if (c.at !== at) continue;
      earned += c.usd;
      c.usd = c.laterUsd;
      c.at += c.interval;
    }
    if (earned >= costUsd) return (at - from) / HOUR_MS;
  }
}
