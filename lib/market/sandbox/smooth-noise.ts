import { unitOf } from "./random";

/*
 * Three octaves of value noise: a day-long swell, a few-hour trend and a sub-hour wobble. Knots sit
 * at fixed UTC minutes, so consecutive minutes interpolate between the same knots and move a
 * little, while a day apart they are unrelated, which is how a live market looks when polled.
 */
const OCTAVES: ReadonlyArray<{ periodMinutes: number; weight: number }> = [
  { periodMinutes: 1440, weight: 0.55 },
  { periodMinutes: 240, weight: 0.3 },
  { periodMinutes: 45, weight: 0.15 },
];

/**
 * Largest change between two consecutive minutes: each octave moves at most weight × 2 (knot to
 * knot) × 1.5 (smoothstep's steepest slope) / period per minute.
 */
export const SMOOTH_NOISE_MAX_STEP = OCTAVES.reduce((sum, o) => sum + (o.weight * 2 * 1.5) / o.periodMinutes, 0);

/** A value in [−1, 1] that drifts smoothly with `minute`; the same key and minute give the same value. */
export function smoothNoise(key: number, minute: number): number {
  let value = 0;
  for (const [octave, { periodMinutes, weight }] of OCTAVES.entries()) {
    const position = minute / periodMinutes;
    const knot = Math.floor(position);
    const t = position - knot;
    const eased = t * t * (3 - 2 * t);
    const from = unitOf(key, octave, knot) * 2 - 1;
    const to = unitOf(key, octave, knot + 1) * 2 - 1;
    value += weight * (from + (to - from) * eased);
  }
  return value;
}
