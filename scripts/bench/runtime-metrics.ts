/**
 * The serving thread's event-loop delay and garbage collection as the server's GET /metrics gives
 * them (prom-client's process metrics): what a stream frame or request waited for on that thread
 * besides the work it asked for. The event-loop figures cover the time since the last scrape
 * (prom-client resets its histogram on each); the collections are counted between two scrapes.
 */

/** Each sample of a Prometheus text exposition by its series (`name{labels}` as written). */
export function parseExposition(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const space = line.lastIndexOf(" ");
    const value = Number(line.slice(space + 1));
    if (Number.isFinite(value)) samples.set(line.slice(0, space), value);
  }
  return samples;
}

const GC_KINDS = ["minor", "major", "incremental", "weakcb"] as const;

/** The event-loop delay at the second scrape, and each kind of collection between the two: how many, their time, how many took 100 ms or more. */
export function runtimeSummary(before: Map<string, number>, after: Map<string, number>): string {
  const ms = (name: string) => `${((after.get(name) ?? Number.NaN) * 1000).toFixed(0)}`;
  const delta = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
  const gc = GC_KINDS.map((kind) => {
    const count = delta(`nodejs_gc_duration_seconds_count{kind="${kind}"}`);
    const seconds = delta(`nodejs_gc_duration_seconds_sum{kind="${kind}"}`);
    const over100 = count - delta(`nodejs_gc_duration_seconds_bucket{le="0.1",kind="${kind}"}`);
    return `${kind} ${count} (${(seconds * 1000).toFixed(0)} ms, ${over100} ≥ 100 ms)`;
  });
  return (
    `event-loop delay p50 ${ms("nodejs_eventloop_lag_p50_seconds")} p99 ${ms("nodejs_eventloop_lag_p99_seconds")} max ${ms("nodejs_eventloop_lag_max_seconds")} ms; ` +
    `garbage collections ${gc.join(", ")}`
  );
}

/** The bounds (s) of fods_stream_thread_loop_delay_seconds' buckets the summary counts past. */
const LOOP_DELAY_BOUNDS = ["0.5", "1", "2", "5"] as const;

/**
 * The stream thread's seconds between two scrapes (fods_stream_thread_loop_delay_seconds: its
 * longest event-loop delay in each second): how many it reported, and in how many that delay passed
 * each bound. A thread often late by seconds reads every venue's frames that late.
 */
export function streamThreadSummary(before: Map<string, number>, after: Map<string, number>): string {
  const delta = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
  const seconds = delta("fods_stream_thread_loop_delay_seconds_count");
  if (seconds === 0) return "no second reported";
  const past = LOOP_DELAY_BOUNDS.map((bound) => `> ${bound} s in ${seconds - delta(`fods_stream_thread_loop_delay_seconds_bucket{le="${bound}"}`)}`);
  const mean = (delta("fods_stream_thread_loop_delay_seconds_sum") / seconds) * 1000;
  return `${seconds} seconds, the longest event-loop delay of each ${mean.toFixed(0)} ms on average, ${past.join(", ")}`;
}

const BATCH_PHASES = ["rank", "patch", "events", "encode", "write", "total"] as const;

/** The micro-batches published between two scrapes: how many, and each phase's mean (fods_micro_batch_phase_seconds). */
export function microBatchSummary(before: Map<string, number>, after: Map<string, number>): string {
  const delta = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
  const count = delta(`fods_micro_batch_phase_seconds_count{phase="total"}`);
  if (count === 0) return "no micro-batch published";
  const means = BATCH_PHASES.map((phase) => `${phase} ${((delta(`fods_micro_batch_phase_seconds_sum{phase="${phase}"}`) / count) * 1000).toFixed(0)}`);
  const [assets, partial, pairs] = ["assets", "partial_assets", "pairs"].map((name) => delta(`fods_micro_batch_${name}_sum`) / count);
  return `${count} micro-batches, ${assets!.toFixed(0)} assets (${partial!.toFixed(0)} in part) and ${pairs!.toFixed(0)} pairs each on average; mean ms ${means.join(", ")}`;
}
