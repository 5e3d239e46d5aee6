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
  return {
    registry,
    httpRequests: new Counter({
      name: "fods_http_requests_total",
      help: "Answers of the API app (/v1, /healthz, /metrics), by route template and status.",
      labelNames: ["route", "status"] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: "fods_http_request_duration_seconds",
      help: "Time from a request reaching the API app to its answer's headers, by route template and status.",
      labelNames: ["route", "status"] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    rateLimitDecisions: new Counter({
      name: "fods_rate_limit_decisions_total",
      help: "Per-key rate-limit decisions on /v1, by outcome (allowed, refused) and the key's plan.",
      labelNames: ["decision", "tier"] as const,
      registers,
    }),
    roundDuration: new Histogram({
      name: "fods_ingest_round_duration_seconds",
      help: "Ingestion rounds run by this process, start to end, by outcome (published, failed).",
      labelNames: ["outcome"] as const,
      buckets: [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300],
      registers,
    }),
    venueFailures: new Counter({
      name: "fods_ingest_venue_failures_total",
      help: "Venues that failed to answer within a round run by this process (their data goes stale), by venue.",
      labelNames: ["venue"] as const,
      registers,
    }),
    venueDataAge: new Gauge({
      name: "fods_venue_data_age_seconds",
      help: "Age of each venue's newest data, from its last successful refresh as stored (absent before the first).",
      labelNames: ["venue"] as const,
      registers,
    }),
    streamConnections: new Gauge({
      name: "fods_stream_connections",
      help: "Open GET /v1/stream (Server-Sent Events) connections in this process.",
      registers,
    }),
    webhookQueue: new Gauge({
      name: "fods_webhook_queue_depth",
      help: "Webhook delivery jobs in the shared queue: held by a runner (running), due to be claimed (due), or waiting for a later retry (scheduled).",
      labelNames: ["state"] as const,
      registers,
    }),
    webhookAttempts: new Counter({
      name: "fods_webhook_delivery_attempts_total",
      help: "Webhook delivery attempts made by this process, by outcome (succeeded, failed).",
      labelNames: ["outcome"] as const,
      registers,
    }),
    dbPool: new Gauge({
      name: "fods_db_pool_clients",
      help: "PostgreSQL connection pools of this process (prisma: the ORM's, direct: raw SQL): clients open (total), idle, and queries waiting for one.",
      labelNames: ["pool", "state"] as const,
      registers,
    }),
    pgliteMemory: new Gauge({
      name: "fods_db_pglite_wasm_memory_bytes",
      help: "The embedded database's WebAssembly memory (PGlite runs one query at a time, without a pool).",
      registers,
    }),
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

export function recordWebhookAttempt(succeeded: boolean): void {
  metrics().webhookAttempts.inc({ outcome: succeeded ? "succeeded" : "failed" });
}
