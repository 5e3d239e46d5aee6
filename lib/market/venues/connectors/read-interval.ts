import { hoursBetweenSettlements } from "../../model/funding-interval";
import { readNumber, type ObservedInterval } from "./build-snapshot";

/** An interval a venue's field states (already in hours), or `null` where the field gave none. */
export function statedInterval(hours: number | null): ObservedInterval | null {
  return hours === null ? null : { hours, source: "venue" };
}

/**
 * An interval a venue states in minutes (BTSE's `fundingIntervalMinutes`, WEEX's `collectCycle`),
 * as a number or a numeric string; `null` where it is missing, garbled or not a whole number of
 * hours (the venues state 60, 240, 480: a stray figure is not an interval to rank on).
 */
export function statedMinutes(value: unknown): ObservedInterval | null {
  const minutes = readNumber(value);
  if (minutes === undefined || !Number.isFinite(minutes) || minutes <= 0 || minutes % 60 !== 0) return null;
  return statedInterval(minutes / 60);
}

/**
 * For venues that state settlement times and no length: the distance between the settlement the
 * current rate is paid at and the one after it (epoch ms fields), when it is a whole number of hours.
 */
export function intervalBetweenSettlements(current: unknown, next: unknown): ObservedInterval | null {
  const from = readNumber(current);
  const to = readNumber(next);
  const hours = from !== undefined && to !== undefined ? hoursBetweenSettlements(from, to) : null;
  return hours === null ? null : { hours, source: "schedule" };
}
