export const MINUTE_MS = 60_000;

/** Whole UTC minutes since the epoch: the sandbox's unit of time, so every second of a minute agrees. */
export function utcMinute(at: Date): number {
  const ms = at.getTime();
  if (!(ms >= 0)) throw new RangeError("sandbox time must be a valid Date from 1970 on");
  return Math.floor(ms / MINUTE_MS);
}
