const HOUR_MS = 3_600_000;
const SECOND_MS = 1_000;

/** A recorded settlement of one market: `rate` paid at `time` for the `intervalHours` before it. */
export interface SettlementPoint {
  /** Epoch ms. */
  time: number;
  /** Decimal per interval, as FundingRate.rate. */
  rate: number;
  intervalHours: number | null;
}

/**
 * The funding one market's settlements paid in each of `hours` whole hours from `windowStart`
 * (epoch ms, an hour's start), as a decimal of notional per hour: a settlement at `time` pays for
 * the interval before it, [time − interval, time), so its rate is spread over the hours of that
 * interval in proportion to their overlap (an 8h settlement of 0.0008 pays 0.0001 in each of its 8
 * hours; two 30-minute ones add up within their hour). That is what makes legs of different intervals
 * comparable hour by hour. An hour the settlements do not cover whole is NaN: not settled yet (the
 * last hours of a long interval), or missed while the venue was not observed. A settlement of
 * unknown interval covers nothing, since what it paid for is unknown. Venues stamp a settlement a
 * few milliseconds after its moment (Binance `…800002`, Hyperliquid `…600048`), which would leave
 * the hour between two such settlements a few milliseconds short of covered: times are taken to the
 * nearest second. Pure.
 */
export function settledHourlyRates(settlements: readonly SettlementPoint[], windowStart: number, hours: number): Float64Array {
  const paid = new Float64Array(hours);
  const covered = new Float64Array(hours);
  const windowEnd = windowStart + hours * HOUR_MS;
  for (const s of settlements) {
    if (s.intervalHours === null || !(s.intervalHours > 0)) continue;
    const periodMs = s.intervalHours * HOUR_MS;
    const time = Math.round(s.time / SECOND_MS) * SECOND_MS;
    const from = Math.max(time - periodMs, windowStart);
    const to = Math.min(time, windowEnd);
    if (to <= from) continue;
    const last = Math.ceil((to - windowStart) / HOUR_MS) - 1;
    for (let i = Math.floor((from - windowStart) / HOUR_MS); i <= last; i++) {
      const hourStart = windowStart + i * HOUR_MS;
      const overlap = Math.min(to, hourStart + HOUR_MS) - Math.max(from, hourStart);
      if (overlap <= 0) continue;
      paid[i]! += (s.rate * overlap) / periodMs;
      covered[i]! += overlap;
    }
  }
  for (let i = 0; i < hours; i++) if (covered[i]! < HOUR_MS) paid[i] = Number.NaN;
  return paid;
}
