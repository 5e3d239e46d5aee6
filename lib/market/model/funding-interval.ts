export const HOUR_MS = 3_600_000;

/** Intervals venues settle on today; a schedule can only choose among these. */
export const SCHEDULE_INTERVALS_HOURS = [1, 2, 4, 8] as const;

/** Settlement times are whole UTC hours; allow for venues stamping a few ms late. */
const ALIGNMENT_TOLERANCE_MS = 60_000;

/**
 * Interval lengths consistent with one observation of a settlement schedule. A venue settles on a
 * UTC grid of its interval shifted by its stated offset (most at 00/08/16 for 8h, offset 0; BitMEX
 * at 04/12/20, offset 4h), and the next settlement is never more than one interval away. With
 * offset 0 and `time` 08:38, a next settlement of 09:00 can only be 1h, 10:00 only 2h, 12:00 only
 * 4h and 16:00 only 8h; with `time` 13:54 and 16:00 it could be 4h or 8h, and the caller must look
 * elsewhere (two consecutive settlement times: {@link hoursBetweenSettlements}) or give up. The
 * offset is the venue's to state: read against the wrong grid, BitMEX's 8h settlement at 12:00 seen
 * at 09:00 would pass for 4h.
 */
export function intervalsMatchingSchedule(
  nextFundingAt: number,
  observedAt: number,
  grid: { offsetHours: number },
  candidates: readonly number[] = SCHEDULE_INTERVALS_HOURS,
): number[] {
  const gap = nextFundingAt - observedAt;
  if (!(gap > 0)) return [];
  return candidates.filter((hours) => {
    const length = hours * HOUR_MS;
    const offset = (((nextFundingAt - grid.offsetHours * HOUR_MS) % length) + length) % length;
    const aligned = offset <= ALIGNMENT_TOLERANCE_MS || length - offset <= ALIGNMENT_TOLERANCE_MS;
    return aligned && gap <= length + ALIGNMENT_TOLERANCE_MS;
  });
}

/** The settlement grid of venues that settle at UTC multiples of the interval (00/08/16 for 8h). */
export const MIDNIGHT_GRID = { offsetHours: 0 } as const;

/**
 * Hours between two consecutive settlements (OKX `fundingTime` → `nextFundingTime`). `null` unless
 * the gap is a positive whole number of hours (± the alignment tolerance), which rules out
 * placeholder or garbled timestamps.
 */
export function hoursBetweenSettlements(from: number, to: number): number | null {
  const gap = to - from;
  if (!Number.isFinite(gap) || gap <= 0) return null;
  const hours = Math.round(gap / HOUR_MS);
  if (hours < 1 || Math.abs(gap - hours * HOUR_MS) > ALIGNMENT_TOLERANCE_MS) return null;
  return hours;
}

/** A venue's interval field (`8`, `"8"`, `"8h"`) as hours, or `null` when absent or not positive. */
export function parseIntervalHours(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) && value > 0 ? value : null;
  if (typeof value !== "string") return null;
  const match = /^\s*(\d+(?:\.\d+)?)\s*h?\s*$/i.exec(value);
  if (!match?.[1]) return null;
  const hours = Number(match[1]);
  return hours > 0 ? hours : null;
}
