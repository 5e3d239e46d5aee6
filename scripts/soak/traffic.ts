// The soak's load generator: every key sends at its own target rate (open loop, paced per key on a
// 10 ms tick): key checks for Free keys, a mix of reads for the others and position writes for Desk keys, over keep-alive
// connections (node:http Agent), so the client costs little next to the server. Answers are
// counted by status and fed to the per-key window counts.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { Tier } from "@/lib/keys/permissions";
import { VENUE_IDS } from "@/lib/market/model/types";
import { planOf } from "@/lib/plans";
import { WindowCounts } from "./window-counts";

export interface SoakKey {
  secret: string;
  tier: Tier;
  /** Requests per second this key is driven at. */
  rate: number;
}

export interface TrafficOptions {
  baseUrl: string;
  keys: SoakKey[];
  opportunityIds: string[];
  symbols: string[];
  durationMs: number;
  /** Requests in flight at most; past it a key's due requests wait (counted in `atCap`). */
  maxInFlight: number;
  timeoutMs: number;
  /**
   * After `afterMs`, called once with the answered rate so far (req/s); returns the factor to
   * multiply the rates of keys that are not `fixed` by from then on (1: unchanged).
   */
  calibrate?: { afterMs: number; decide: (answeredPerS: number) => number };
  /** Keys whose rate calibration leaves alone (the ones driven past their limit on purpose). */
  fixed?: ReadonlySet<number>;
  /**
   * Told when, after calibration, the in-flight cap was hit in more than 5 % of a 10 s interval's
   * ticks (the server fell behind): the other keys' rates are then cut by a fifth.
   */
  onBackoff?: (scale: number) => void;
}

export interface TrafficResult {
  sent: number;
  answered: number;
  statuses: Map<string, number>;
  /** Status → "METHOD route" → count, for the unexpected ones. */
  unexpected: Map<string, Map<string, number>>;
  byRoute: Map<string, number>;
  /** Route → its latencies (ms, sorted), after calibration. */
  latencyByRoute: Map<string, Float64Array>;
  windows: WindowCounts;
  durationMs: number;
  /** Times a key's due request had to wait because `maxInFlight` were already in flight. */
  atCap: number;
  /** Resends after the server closed a reused keep-alive socket under a request (at most MAX_RESENDS each). */
  retried: number;
  /** The factor the keys that are not `fixed` ended at (calibration and back-offs). */
  finalScale: number;
  /** Of the requests sent after calibration (all of them without one). */
  latencies: Float64Array;
}

interface Request {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  route: string;
  body?: string;
  onCreated?: (id: string) => void;
  /** The position this request changes. */
  id?: string;
  /** Sent as Idempotency-Key, so a resent POST creates one position. */
  idempotencyKey?: string;
}

/** How often a request reset on a reused socket is sent again (each resend is counted). */
const MAX_RESENDS = 2;
const SORTS = ["apr", "-apr", "net_apr", "-net_apr", "open_interest", "-open_interest"];

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

/** A GET /v1/opportunities with a random combination of filters. */
function listPath(symbols: string[]): string {
  const params = new URLSearchParams();
  params.set("limit", String(pick([10, 25, 50, 100])));
  if (Math.random() < 0.3) params.set("exchange", pick(VENUE_IDS));
  if (Math.random() < 0.3) params.set("min_apr", String(pick([5, 10, 20, 50])));
  if (Math.random() < 0.2) params.set("symbol", pick(symbols));
  if (Math.random() < 0.3) params.set("sort", pick(SORTS));
  if (Math.random() < 0.2) params.set("offset", String(pick([0, 50, 100, 500])));
  return `/v1/opportunities?${params}`;
}

export async function runTraffic(options: TrafficOptions): Promise<TrafficResult> {
  const url = new URL(options.baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.maxInFlight, maxFreeSockets: options.maxInFlight });
  const statuses = new Map<string, number>();
  const unexpected = new Map<string, Map<string, number>>();
  const byRoute = new Map<string, number>();
  const windows = new WindowCounts();
  const latencies: number[] = [];
  const routeLatencies = new Map<string, number[]>();
  // Each Desk key's own open positions, so PATCH and DELETE name real ones and the portfolio stays small.
  const positions = options.keys.map(() => [] as string[]);
  const credit = options.keys.map(() => Math.random()); // spread the keys' first requests
  let sent = 0;
  let answered = 0;
  let inFlight = 0;
  let atCap = 0;
  let retried = 0;

  let scale = 1;
  let calibrated = !options.calibrate;
  let interval = { startedAt: Date.now(), ticks: 0, ticksAtCap: 0 };
  const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

  // A position with a request in flight is left alone: a client does not PATCH what it is deleting.
  const busy = new Set<string>();
  const takeIdle = (own: string[], remove: boolean): string | undefined => {
    const index = own.findIndex((id) => !busy.has(id));
    if (index < 0) return undefined;
    const id = own[index]!;
    if (remove) own.splice(index, 1);
    return id;
  };
  const nextRequest = (k: number): Request => {
    const key = options.keys[k]!;
    const r = Math.random();
    // A key of a plan without API access reaches only the key check; one with `write` also changes the portfolio.
    if (!planOf(key.tier).features.api) return { method: "GET", path: "/v1/auth/verify", route: "GET /v1/auth/verify" };
    if (planOf(key.tier).features.write) {
      const own = positions[k]!;
      const remove = (id: string): Request => ({ method: "DELETE", path: `/v1/portfolio/positions/${id}`, route: "DELETE /v1/portfolio/positions/{id}", id });
      if (r < 0.15) {
        const idle = own.length >= 10 ? takeIdle(own, true) : undefined;
        if (idle) return remove(idle);
        const body = JSON.stringify({ opportunity_id: pick(options.opportunityIds), notional_usd: 1_000 + Math.floor(Math.random() * 50_000) });
        return {
          method: "POST",
          path: "/v1/portfolio/positions",
          route: "POST /v1/portfolio/positions",
          body,
          idempotencyKey: randomUUID(),
          onCreated: (id) => own.push(id),
        };
      }
      if (r < 0.2) {
        const id = takeIdle(own, false);
        if (id) return { method: "PATCH", path: `/v1/portfolio/positions/${id}`, route: "PATCH /v1/portfolio/positions/{id}", body: JSON.stringify({ note: `soak ${Date.now()}` }), id };
      } else if (r < 0.25) {
        const id = takeIdle(own, true);
        if (id) return remove(id);
      }
    }
    if (r < 0.55) return { method: "GET", path: listPath(options.symbols), route: "GET /v1/opportunities" };
    if (r < 0.8) return { method: "GET", path: `/v1/opportunities/${encodeURIComponent(pick(options.opportunityIds))}`, route: "GET /v1/opportunities/{id}" };
    return { method: "GET", path: "/v1/portfolio", route: "GET /v1/portfolio" };
  };

  const send = (k: number, retry?: Request, attempt = 0) => {
    const key = options.keys[k]!;
    const req = retry ?? nextRequest(k);
    if (retry) {
      retried++;
    } else {
      sent++;
      inFlight++;
      if (req.id) busy.add(req.id);
      count(byRoute, req.route);
    }
    const started = performance.now();
    const measured = calibrated; // latency counts from the calibrated rate on
    let done = false;
    const finish = (status: string, body: string, reset: number | undefined) => {
      if (done) return; // a response error may be followed by the request's own
      done = true;
      inFlight--;
      if (req.id) busy.delete(req.id);
      answered++;
      if (measured) {
        const ms = performance.now() - started;
        latencies.push(ms);
        let own = routeLatencies.get(req.route);
        if (!own) routeLatencies.set(req.route, (own = []));
        own.push(ms);
      }
      count(statuses, status);
      const code = Number(status);
      if (code >= 200 && code < 300) {
        if (reset !== undefined) windows.admitted(k, reset, Date.now());
        if (req.onCreated) {
          try {
            const id = (JSON.parse(body) as { data?: { id?: string } }).data?.id;
            if (id) req.onCreated(id);
          } catch {
            // Counted as 2xx; a body that is not JSON would show up in the functional suites.
          }
        }
      } else if (code !== 429) {
        let routes = unexpected.get(status);
        if (!routes) unexpected.set(status, (routes = new Map()));
        count(routes, `${req.route}${body ? ` ${body.slice(0, 120)}` : ""}`);
        // A failed DELETE may leave the position: forget it anyway, the portfolio cap keeps working.
      }
    };
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        agent,
        timeout: options.timeoutMs,
        headers: {
          authorization: `Bearer ${key.secret}`,
          accept: "application/json",
          ...(req.body !== undefined && { "content-type": "application/json", "content-length": Buffer.byteLength(req.body) }),
          ...(req.idempotencyKey !== undefined && { "idempotency-key": req.idempotencyKey }),
        },
      },
      (response) => {
        // Only created positions' bodies are read; the rest are drained without being kept.
        const keep = req.onCreated !== undefined || (response.statusCode ?? 0) >= 300;
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => keep && chunks.push(chunk));
        response.on("end", () => {
          const resetHeader = response.headers["x-ratelimit-reset"];
          const status = String(response.statusCode ?? 0);
          finish(status, keep && status !== "429" ? Buffer.concat(chunks).toString("utf8") : "", resetHeader ? Number(resetHeader) : undefined);
        });
        response.on("error", () => finish("response error", "", undefined));
      },
    );
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", (error) => {
      // The server closed an idle keep-alive socket as this request went out on it: the request was
      // not read, and a client resends it (Node's documented `reusedSocket` case). POSTs carry an
      // Idempotency-Key, so even a POST that had been read would be answered once.
      if (!done && request.reusedSocket && (error as NodeJS.ErrnoException).code === "ECONNRESET" && attempt < MAX_RESENDS) {
        done = true;
        return send(k, req, attempt + 1);
      }
      finish(error.message === "timeout" ? "timeout" : `socket error (${(error as NodeJS.ErrnoException).code ?? error.message})`, "", undefined);
    });
    if (req.body !== undefined) request.write(req.body);
    request.end();
  };

  const started = Date.now();
  let last = performance.now();

  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const now = performance.now();
      const dt = (now - last) / 1000;
      last = now;
      if (Date.now() - started >= options.durationMs) {
        clearInterval(tick);
        resolve();
        return;
      }
      if (!calibrated && Date.now() - started >= options.calibrate!.afterMs) {
        calibrated = true;
        scale = options.calibrate!.decide(answered / ((Date.now() - started) / 1000));
        interval = { startedAt: Date.now(), ticks: 0, ticksAtCap: 0 };
      }
      if (calibrated && Date.now() - interval.startedAt >= 10_000) {
        if (interval.ticksAtCap > 0.05 * interval.ticks) {
          scale *= 0.8;
          options.onBackoff?.(scale);
        }
        interval = { startedAt: Date.now(), ticks: 0, ticksAtCap: 0 };
      }
      interval.ticks++;
      const capBefore = atCap;
      for (let k = 0; k < options.keys.length; k++) {
        const rate = options.keys[k]!.rate * (options.fixed?.has(k) ? 1 : scale);
        // At most two requests' worth of credit: a key held back by a full pipe does not burst later.
        credit[k] = Math.min(2, credit[k]! + rate * dt);
        while (credit[k]! >= 1) {
          if (inFlight >= options.maxInFlight) {
            atCap++;
            break;
          }
          credit[k] = credit[k]! - 1;
          send(k);
        }
      }
      if (atCap > capBefore) interval.ticksAtCap++;
    }, 10);
  });
  // Let the requests in flight finish (bounded by their timeout).
  const drainDeadline = Date.now() + options.timeoutMs + 1_000;
  while (inFlight > 0 && Date.now() < drainDeadline) await new Promise((r) => setTimeout(r, 50));
  const durationMs = Date.now() - started;
  agent.destroy();
  const latencyByRoute = new Map([...routeLatencies].map(([route, values]) => [route, Float64Array.from(values).sort()]));
  return { sent, answered, statuses, unexpected, byRoute, latencyByRoute, windows, durationMs, atCap, retried, finalScale: scale, latencies: Float64Array.from(latencies).sort() };
}
