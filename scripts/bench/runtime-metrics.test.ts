import { describe, expect, it } from "vitest";
import { Histogram, Registry } from "prom-client";
import { microBatchSummary, parseExposition, runtimeSummary, streamThreadSummary } from "./runtime-metrics";

describe("runtime metrics", () => {
  it("reads prom-client's exposition and counts the collections between two scrapes", async () => {
    const registry = new Registry();
    const gc = new Histogram({ name: "nodejs_gc_duration_seconds", help: "gc", labelNames: ["kind"], buckets: [0.001, 0.01, 0.1, 1, 2, 5], registers: [registry] });
    gc.observe({ kind: "major" }, 0.05);
    const before = parseExposition(await registry.metrics());
    gc.observe({ kind: "major" }, 0.25);
    gc.observe({ kind: "major" }, 0.02);
    gc.observe({ kind: "minor" }, 0.002);
    const after = parseExposition(`${await registry.metrics()}nodejs_eventloop_lag_p50_seconds 0.0101\nnodejs_eventloop_lag_p99_seconds 0.4\nnodejs_eventloop_lag_max_seconds 1.25\n`);
    expect(after.get('nodejs_gc_duration_seconds_count{kind="major"}')).toBe(3);
    expect(runtimeSummary(before, after)).toBe(
      "event-loop delay p50 10 p99 400 max 1250 ms; garbage collections minor 1 (2 ms, 0 ≥ 100 ms), major 2 (270 ms, 1 ≥ 100 ms), incremental 0 (0 ms, 0 ≥ 100 ms), weakcb 0 (0 ms, 0 ≥ 100 ms)",
    );
  });

  it("counts the stream thread's seconds whose longest event-loop delay passed each bound, between two scrapes", async () => {
    const registry = new Registry();
    const delay = new Histogram({ name: "fods_stream_thread_loop_delay_seconds", help: "d", buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10], registers: [registry] });
    delay.observe(7);
    const before = parseExposition(await registry.metrics());
    expect(streamThreadSummary(before, before)).toBe("no second reported");
    for (const seconds of [0.02, 0.03, 0.6, 1.5, 2.5, 6.25]) delay.observe(seconds);
    expect(streamThreadSummary(before, parseExposition(await registry.metrics()))).toBe(
      "6 seconds, the longest event-loop delay of each 1817 ms on average, > 0.5 s in 4, > 1 s in 3, > 2 s in 2, > 5 s in 1",
    );
  });

  it("averages the micro-batches' phases published between two scrapes", async () => {
    const registry = new Registry();
    const phase = new Histogram({ name: "fods_micro_batch_phase_seconds", help: "p", labelNames: ["phase"], buckets: [0.1, 1], registers: [registry] });
    const assets = new Histogram({ name: "fods_micro_batch_assets", help: "a", buckets: [10, 100], registers: [registry] });
    const partial = new Histogram({ name: "fods_micro_batch_partial_assets", help: "a", buckets: [10, 100], registers: [registry] });
    const pairs = new Histogram({ name: "fods_micro_batch_pairs", help: "a", buckets: [10, 100], registers: [registry] });
    phase.observe({ phase: "total" }, 9);
    const before = parseExposition(await registry.metrics());
    expect(microBatchSummary(before, before)).toBe("no micro-batch published");
    for (const [total, write, width] of [[0.3, 0.1, 40], [0.5, 0.2, 60]] as const) {
      phase.observe({ phase: "total" }, total);
      phase.observe({ phase: "write" }, write);
      assets.observe(width);
      partial.observe(width / 2);
      pairs.observe(width * 30);
    }
    expect(microBatchSummary(before, parseExposition(await registry.metrics()))).toBe(
      "2 micro-batches, 50 assets (25 in part) and 1500 pairs each on average; mean ms rank 0, patch 0, events 0, encode 0, write 150, total 400",
    );
  });
});
