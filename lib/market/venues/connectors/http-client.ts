import { systemClock } from "../venue-budget";
import type { FetchImplementation } from "./fetch-implementation";

/**
 * The small JSON client an HTTP venue adapter (venue-adapter.ts HttpVenueAdapter) reads through:
 * GET and POST against the venue's REST root, each request under its own timeout and the caller's
 * AbortSignal, spaced by the venue's request budget, over an injectable `fetch` (tests replay
 * through lib/market/venues/replay-fetch.ts, as the ccxt path does). A non-2xx answer or a body that is
 * not JSON throws, so a broken venue goes stale rather than yielding a partial list.
 */
export interface HttpClient {
  getJson(path: string, query?: Record<string, string>, options?: RequestOptions): Promise<unknown>;
  postJson(path: string, body: unknown, options?: RequestOptions): Promise<unknown>;
}

export interface RequestOptions {
  /** Aborts the request (and a wait for its slot) early. */
  signal?: AbortSignal;
  /** Sent beside `accept`: a signed endpoint's key and signature. */
  headers?: Record<string, string>;
}

export interface HttpClientSettings {
  /** The venue's REST root, e.g. `https://www.bitmex.com`. */
  baseUrl: string;
  /** Per-request timeout (ms). */
  timeoutMs: number;
  /** Least time between the starts of two requests (ms); 0 sends at once. */
  spacingMs: number;
  /** Replaces the network; global `fetch` when absent. */
  fetchImplementation?: FetchImplementation;
  /**
   * Waits for the venue's request budget before each request, after its spacing: live clients draw
   * a live token (venue-budget.ts); replays have none.
   */
  beforeRequest?: (signal: AbortSignal | undefined) => Promise<void>;
}

/**
 * A client that keeps its throttle state between calls, so a live client reused across refreshes
 * keeps the venue's spacing across them. `timeoutMs` and `spacingMs` may be changed between calls.
 */
export interface ConfigurableHttpClient extends HttpClient {
  timeoutMs: number;
  spacingMs: number;
}

export class HttpStatusError extends Error {
  override readonly name = "HttpStatusError";
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class HttpBodyError extends Error {
  override readonly name = "HttpBodyError";
}

export class RequestTimeoutError extends Error {
  override readonly name = "RequestTimeoutError";
}

const SNIPPET_LENGTH = 120;

export function createHttpClient(settings: HttpClientSettings): ConfigurableHttpClient {
  const send: FetchImplementation = settings.fetchImplementation ?? ((url, init) => fetch(url, init));
  // When the request before the next one actually started (epoch ms): each request waits for its
  // predecessor's start, so concurrent calls queue one spacing apart, and a start delayed by a busy
  // process delays the ones after it instead of letting them crowd in behind.
  let previousStart: Promise<number> = Promise.resolve(Number.NEGATIVE_INFINITY);

  const client: ConfigurableHttpClient = {
    timeoutMs: settings.timeoutMs,
    spacingMs: settings.spacingMs,
    getJson: (path, query, options) => {
      const url = new URL(path, settings.baseUrl);
      for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value);
      return request("GET", url, undefined, options);
    },
    postJson: (path, body, options) => request("POST", new URL(path, settings.baseUrl), JSON.stringify(body), options),
  };

  async function waitForSlot(signal: AbortSignal | undefined): Promise<void> {
    const before = previousStart;
    let started: (at: number) => void = () => undefined;
    previousStart = new Promise((resolve) => (started = resolve));
    const previousAt = await before;
    const wait = previousAt + Math.max(0, client.spacingMs) - Date.now();
    try {
      if (wait > 0) await systemClock.sleep(wait, signal);
    } catch (error) {
      // An aborted wait starts nothing: the next request is spaced from the one before.
      started(previousAt);
      throw error;
    }
    started(Date.now());
  }

  async function request(method: "GET" | "POST", url: URL, body: string | undefined, options: RequestOptions = {}): Promise<unknown> {
    const label = `${method} ${url.pathname}`;
    await waitForSlot(options.signal);
    await settings.beforeRequest?.(options.signal);
    const deadline = requestDeadline(client.timeoutMs, options.signal);
    const headers: Record<string, string> = { accept: "application/json", ...options.headers };
    if (body !== undefined) headers["content-type"] = "application/json";
    let text: string;
    let response: Response;
    try {
      // An already aborted signal fires no more events; fetch implementations may not check it.
      options.signal?.throwIfAborted();
      response = await send(url.href, { method, headers, body, signal: deadline.signal });
      text = await response.text();
    } catch (error) {
      if (deadline.timedOut()) throw new RequestTimeoutError(`${label} timed out after ${client.timeoutMs} ms`);
      throw error;
    } finally {
      deadline.done();
    }
    if (!response.ok) throw new HttpStatusError(response.status, `${label} answered HTTP ${response.status}: ${snippet(text)}`);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new HttpBodyError(`${label} answered a body that is not JSON: ${snippet(text)}`);
    }
  }

  return client;
}

/**
 * One request's signal: aborted after `timeoutMs`, or with the caller's `signal` and its reason.
 * `done` stops both once the request is over. A timer and a listener, not AbortSignal.timeout and
 * AbortSignal.any: those cost ~10 µs a request here, with a weak reference each for the collector
 * to process, and a venue asked one ticker per market sends hundreds of requests a refresh.
 */
function requestDeadline(timeoutMs: number, signal: AbortSignal | undefined) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, "TimeoutError"));
  }, timeoutMs);
  const onAbort = () => controller.abort(signal!.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done: () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    },
  };
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > SNIPPET_LENGTH ? `${flat.slice(0, SNIPPET_LENGTH - 3)}...` : flat;
}
