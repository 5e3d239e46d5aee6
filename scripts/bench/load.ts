// One autocannon run: fixed connections and duration, the same rotating request list for the
// service and the baseline, latency kept per response (sub-millisecond) for exact percentiles.
// Only answers with the expected status count (and are timed): 2xx, or exactly 304 for the
// conditional scenario, whose every answer must be a 304.
import autocannon, { type AutocannonRequest, type Client } from "autocannon";

export interface LoadOptions {
  url: string;
  path: string;
  connections: number;
  durationS: number;
  /** Offered load in requests per second over all connections; unset: as fast as answered. */
  overallRate?: number;
  /**
   * One Authorization value per request in the rotation. Each connection cycles through all of them
   * from its own starting point, so at any moment the connections use different keys, as 200
   * separate clients would (not 50 connections in lockstep on one key).
   */
  authorizations: string[];
  /** Sent with every request besides Authorization and Accept (Accept-Encoding, If-None-Match). */
  headers?: Record<string, string>;
  /** The status every answer must have; unset: any 2xx. */
  expectStatus?: number;
}

export interface LoadResult {
  requests: number;
  /** Answers with the expected status: the ones counted in req/s and timed. */
  ok: number;
  /** Answers outside 2xx, as autocannon counts them (a conditional run's 304s among them). */
  non2xx: number;
  /** Answers with any status but the expected one. */
  unexpected: number;
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  durationS: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  max: number;
  bytesPerResponse: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function runLoad(options: LoadOptions): Promise<LoadResult> {
  // Static requests: autocannon serialises them once per connection, so rotation costs the client nothing.
  const requests: AutocannonRequest[] = options.authorizations.map((authorization) => ({
    method: "GET",
    path: options.path,
    headers: { authorization, accept: "application/json", ...options.headers },
  }));
  const expected = (status: number) => (options.expectStatus === undefined ? status >= 200 && status < 300 : status === options.expectStatus);
  const stride = Math.max(1, Math.floor(requests.length / options.connections));
  let clientIndex = 0;
  const setupClient = (client: Client) => {
    const start = (clientIndex++ * stride) % requests.length;
    // Copies: autocannon stores each request's serialised bytes on the object itself.
    client.setRequests([...requests.slice(start), ...requests.slice(0, start)].map((request) => ({ ...request })));
  };
  const latencies: number[] = [];
  let bytes = 0;
  let okCount = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url: options.url, connections: options.connections, duration: options.durationS, timeout: 10, requests, setupClient, ...(options.overallRate && { overallRate: options.overallRate }) },
      (error, result) => {
        if (error) return reject(error);
        const sorted = Float64Array.from(latencies).sort();
        const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]));
        const total = Object.values(statusCodes).reduce((a, b) => a + b, 0);
        resolve({
          requests: total,
          ok: okCount,
          non2xx: result.non2xx,
          unexpected: total - okCount,
          statusCodes,
          errors: result.errors,
          timeouts: result.timeouts,
          durationS: result.duration,
          reqPerSec: okCount / result.duration,
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          max: sorted.length ? sorted[sorted.length - 1]! : NaN,
          bytesPerResponse: okCount ? bytes / okCount : 0,
        });
      },
    );
    instance.on("response", (_client: unknown, statusCode: number, resBytes: number, responseTime: number) => {
      if (expected(statusCode)) {
        okCount++;
        bytes += resBytes;
        latencies.push(responseTime);
      }
    });
  });
}
