import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { processSingleton } from "@/lib/singleton";

/**
 * The process's Prometheus metrics, served at GET /metrics (lib/api/metrics-endpoint.ts). Counters
 * and histograms are this process's own since it started; the gauges that describe shared state
 * (venue data age, the delivery queue) are read from the database when scraped, so every process
 * reports the same for them.
 */
function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  // Each metric in this process's one registry, its label names typed.
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) => new Counter<L>({ name, help, labelNames, registers });
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) => new Gauge<L>({ name, help, labelNames, registers });
  const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) =>
    new Histogram<L>({ name, help, labelNames, buckets, registers });
  return {
    registry,
    httpRequests: counter("fods_http_requests_total", "Answers of the API app (/v1, /healthz, /metrics), by route template and status.", ["route", "status"]),
    httpDuration: histogram("fods_http_request_duration_seconds", "Time from a request reaching the API app to its answer's headers, by route template and status.", ["route", "status"], [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]),
    rateLimitDecisions: counter("fods_rate_limit_decisions_total", "Per-key rate-limit decisions on /v1, by outcome (allowed, refused) and the key's plan.", ["decision", "tier"]),
    roundDuration: histogram("fods_ingest_round_duration_seconds", "Ingestion rounds run by this process, start to end, by outcome (published, failed).", ["outcome"], [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300]),
    microBatchPhase: histogram(
      "fods_micro_batch_phase_seconds",
      "Where each micro-batch this process published spent its time: re-ranking (rank), patching the set (patch), deriving events (events), packing (encode), the publishing transaction (write), and all of it (total).",
      ["phase"],
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    ),
    microBatchAssets: histogram("fods_micro_batch_assets", "Assets each micro-batch this process published re-ranked.", [], [1, 5, 10, 25, 50, 100, 200, 400, 800]),
    microBatchPartialAssets: histogram("fods_micro_batch_partial_assets", "Of those, the assets re-ranked in part (only their pairs with a leg on a changed venue).", [], [1, 5, 10, 25, 50, 100, 200, 400, 800]),
    microBatchPairs: histogram("fods_micro_batch_pairs", "Pairs each micro-batch this process published re-ranked.", [], [100, 1_000, 10_000, 50_000, 100_000, 200_000, 500_000]),
    venueFailures: counter("fods_ingest_venue_failures_total", "Venues that failed to answer within a round run by this process (their data goes stale), by venue.", ["venue"]),
    venueDataAge: gauge("fods_venue_data_age_seconds", "Age of each venue's newest data, from its last successful refresh as stored (absent before the first).", ["venue"]),
    streamThreadLoopDelay: histogram(
      "fods_stream_thread_loop_delay_seconds",
      "The live feeds' stream thread's longest event-loop delay in each second: how late it read its sockets and ran its stall checks.",
      [],
      [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
    ),
    streamConnections: gauge("fods_stream_connections", "Open GET /v1/stream (Server-Sent Events) connections in this process."),
    webhookQueue: gauge("fods_webhook_queue_depth", "Webhook delivery jobs in the shared queue: held by a runner (running), due to be claimed (due), or waiting for a later retry (scheduled).", ["state"]),
    webhookAttempts: counter("fods_webhook_delivery_attempts_total", "Webhook delivery attempts made by this process, by outcome (succeeded, failed).", ["outcome"]),
    dbPool: gauge("fods_db_pool_clients", "PostgreSQL connection pools of this process (prisma: the ORM's, direct: raw SQL): clients open (total), idle, and queries waiting for one.", ["pool", "state"]),
    pgliteMemory: gauge("fods_db_pglite_wasm_memory_bytes", "The embedded database's WebAssembly memory (PGlite runs one query at a time, without a pool)."),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The metrics of this process (one registry, whichever copy of lib/ records). */
export function metrics(): Metrics {
  return processSingleton("metrics", createMetrics);
}

/**
 * The registry with prom-client's process metrics (CPU, memory, event-loop delay, garbage
 * collection) added on the first call: they start with the first scrape, so a process nobody
 * scrapes (the worker) does not sample its event loop a hundred times a second for nothing.
 */
export function scrapedRegistry(): Registry {
  const { registry } = metrics();
  processSingleton("metrics-defaults", () => {
    collectDefaultMetrics({ register: registry });
    return true;
  });
  return registry;
}

/** Counts one answer of the API app and how long it took. */
export function recordHttpRequest(route: string, status: number, seconds: number): void {
  const m = metrics();
  const labels = { route, status: String(status) };
  m.httpRequests.inc(labels);
  m.httpDuration.observe(labels, seconds);
}

export function recordRateLimitDecision(allowed: boolean, tier: string): void {
  metrics().rateLimitDecisions.inc({ decision: allowed ? "allowed" : "refused", tier });
}

/** One ingestion round's duration and the venues that failed in it. */
export function recordIngestionRound(outcome: string, seconds: number, failedVenues: readonly string[]): void {
  const m = metrics();
  m.roundDuration.observe({ outcome }, seconds);
  for (const venue of failedVenues) m.venueFailures.inc({ venue });
}

/** One micro-batch's phases (MicroBatchPublisher's BatchTimings, in ms) and width. */
export function recordMicroBatch(timings: { rank: number; patch: number; events: number; encode: number; write: number; total: number; bases: number; partial: number; pairs: number }): void {
  const m = metrics();
  for (const phase of ["rank", "patch", "events", "encode", "write", "total"] as const) m.microBatchPhase.observe({ phase }, timings[phase] / 1000);
  m.microBatchAssets.observe(timings.bases);
  m.microBatchPartialAssets.observe(timings.partial);
  m.microBatchPairs.observe(timings.pairs);
}

export function recordWebhookAttempt(succeeded: boolean): void {
  metrics().webhookAttempts.inc({ outcome: succeeded ? "succeeded" : "failed" });
}
