// Whether resident memory grew over a run, read from evenly spaced samples. V8 lets its old space
// fill up to a limit before a full collection, so under load RSS climbs and drops in a saw-tooth;
// where in it a run happens to end says little. A leak shows as the troughs rising.

/** The lowest sample of the last third against the lowest of the first third, as a fraction. */
export function floorGrowth(samples: readonly number[]): number {
  if (samples.length < 3) throw new Error("at least three samples are needed");
  const third = Math.floor(samples.length / 3);
  const first = Math.min(...samples.slice(0, third));
  const last = Math.min(...samples.slice(-third));
  return (last - first) / first;
}
