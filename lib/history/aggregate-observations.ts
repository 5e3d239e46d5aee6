import { HOUR_MS } from "../market/model/funding-interval";
import type { HistorySettlement } from "./history-types";

/**
 * Settlements from a continuous-funding venue's observations (Paradex `GET /v1/funding/data`).
 *
 * Such a venue settles nothing: every second it recomputes a rate quoted for a whole funding period
 * and accrues it into a cumulative funding index, and its history lists those observations (one
 * every 5 s on Paradex), not payments. Summing the rows overstates funding by the number of rows in
 * a period: 5,760 for an 8 h period at 5 s, 28,800 at the 1 s the venue computes on.
 *
 * A settlement here is the funding one unit of the base accrued over one whole period, as a rate:
 * the change of the funding index between the two ends of the period, divided by the price the
 * venue quotes its premium at. The index delta is chosen over a time-weighted mean of the rows'
 * `funding_rate` because it is the venue's own accrual, exactly what a position held through the
 * period was charged (a pause of over 30 s accrues nothing, and the index shows it), and because it
 * needs one observation at each end of a period instead of every row in it: a mean would read 5,760
 * rows per 8 h interval, gigabytes a year per market, where the delta reads two short pages.
 */

/** One parsed row of a venue's funding data. */
export interface FundingObservation {
  /** `created_at`, epoch ms. */
  time: number;
  /** `funding_index`: USDC accrued per unit of base since listing. */
  fundingIndex: number;
  /** `funding_premium`: `rate` × spot ÷ USDC price, USDC per unit of base per period. */
  premium: number;
  /** `funding_rate`: decimal per period. */
  rate: number;
  /** `funding_period_hours`; null where the row states none (0 or absent). */
  periodHours: number | null;
}

/**
 * How far after a period's boundary an observation may lie and still pin the index at the boundary:
 * the venue stops accruing across a gap of over 30 s, so an observation further away may hide a
 * pause the extrapolation back to the boundary would wrongly charge.
 */
export const BOUNDARY_TOLERANCE_MS = 30_000;

/** The index and the quote price at one period boundary. */
export interface BoundaryState {
  boundary: number;
  periodHours: number;
  /** The index at the boundary itself. */
  fundingIndex: number;
  /** Spot ÷ USDC, the premium's price; null when the observation's rate is 0 and hides it. */
  price: number | null;
}

/** The boundary of the `periodHours` grid (epoch-aligned, as 00/08/16 UTC for 8 h) at or before `time`. */
export function periodStart(time: number, periodHours: number): number {
  const periodMs = periodHours * HOUR_MS;
  return Math.floor(time / periodMs) * periodMs;
}

/**
 * The state at every boundary some observation pins: the earliest observation at or after the
 * boundary, within the tolerance, moved back to the boundary by the venue's own accrual rule
 * (index − premium × elapsed ÷ period).
 */
export function boundaryStates(
  observations: readonly FundingObservation[],
  toleranceMs: number = BOUNDARY_TOLERANCE_MS,
): Map<number, BoundaryState> {
  const earliest = new Map<number, FundingObservation>();
  for (const observation of observations) {
    if (observation.periodHours === null) continue;
    const boundary = periodStart(observation.time, observation.periodHours);
    if (observation.time - boundary > toleranceMs) continue;
    const held = earliest.get(boundary);
    if (!held || observation.time < held.time) earliest.set(boundary, observation);
  }
  const states = new Map<number, BoundaryState>();
  for (const [boundary, observation] of earliest) {
    const periodHours = observation.periodHours as number;
    const elapsed = observation.time - boundary;
    states.set(boundary, {
      boundary,
      periodHours,
      fundingIndex: observation.fundingIndex - (observation.premium * elapsed) / (periodHours * HOUR_MS),
      price: observation.rate !== 0 && observation.premium / observation.rate > 0 ? observation.premium / observation.rate : null,
    });
  }
  return states;
}

/**
 * The settlement of every whole period both of whose boundaries are pinned with the same period,
 * ascending by time: at the period's end, the index delta over the mean of the two ends' prices,
 * per that period. A period with an end unpinned, a period change inside it, or no price at either
 * end while the index moved is a gap, never a guess.
 */
export function aggregateObservations(
  observations: readonly FundingObservation[],
  toleranceMs: number = BOUNDARY_TOLERANCE_MS,
): HistorySettlement[] {
  const states = boundaryStates(observations, toleranceMs);
  const settlements: HistorySettlement[] = [];
  for (const end of states.values()) {
    const start = states.get(end.boundary - end.periodHours * HOUR_MS);
    if (!start || start.periodHours !== end.periodHours) continue;
    const accrued = end.fundingIndex - start.fundingIndex;
    const prices = [start.price, end.price].filter((price): price is number => price !== null);
    if (prices.length === 0 && accrued !== 0) continue;
    const price = prices.reduce((sum, value) => sum + value, 0) / Math.max(prices.length, 1);
    // 12 significant digits: the index carries ~20 digits, a double keeps ~16, and the rows' rates 13.
    const rate = accrued === 0 ? 0 : Number((accrued / price).toPrecision(12));
    settlements.push({ time: end.boundary, rate, intervalHours: end.periodHours });
  }
  return settlements.sort((a, b) => a.time - b.time);
}
