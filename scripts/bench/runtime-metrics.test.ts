import { describe, expect, it } from "vitest";
import { Histogram, Registry } from "prom-client";
import { parseExposition, runtimeSummary } from "./runtime-metrics";

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
});
