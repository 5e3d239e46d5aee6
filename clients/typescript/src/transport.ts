import { FundingDataError } from "./errors.js";

/** The query object of an operation from openapi-types.ts. */
export type Query<Op> = Op extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** The JSON request body of an operation that takes one (optional where every field is: pass `{}`). */
export type Body<Op> = Op extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;
/** The success body ({data, meta}) of an operation for its success status. */
export type Envelope<Op, Status extends number> = Op extends { responses: { [S in Status]: { content: { "application/json": infer B } } } }
  ? B
  : never;
/** One item of a list payload. */
export type PageItem<E> = E extends { data: { items: (infer I)[] } } ? I : never;

export interface TransportOptions {
  apiKey: string;
  baseUrl: string;
  /** Retries after the first attempt, on 429 and (for reads) on 5xx and network failures. */
  maxRetries: number;
  /** First backoff after a 5xx or network failure; doubles each time, with jitter. */
  retryBaseDelayMs: number;
  /** No wait is longer: a 429 asking for more is thrown instead of waited out. */
  maxRetryDelayMs: number;
  timeoutMs: number;
  /** GET answers kept with their ETag for If-None-Match, the least recently used dropped first; 0 keeps none. */
  conditionalCacheSize: number;
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
}

/** A GET answer as received, with the ETag that validates it. */
interface Kept {
  etag: string;
  text: string;
}

type QueryValues = Record<string, string | number | boolean | undefined | null>;

interface ErrorBody {
  error?: { code?: string; message?: string; retry_after?: number; details?: { field: string; message: string }[] };
  meta?: { request_id?: string };
}

/**
 * One HTTP exchange with the API: key, query string, timeouts, retries and the error envelope.
 * GETs are conditional: the last answer of each URL is kept with its ETag and sent back as
 * If-None-Match, and a 304 Not Modified returns the kept body (its `meta` is that of the answer
 * that carried it). A 304 still counts against the key's rate limit; it saves the body's transfer
 * and parsing.
 */
export class Transport {
  private readonly kept = new Map<string, Kept>();

  constructor(readonly options: TransportOptions) {}

  async request<T>(method: string, path: string, query?: object, body?: object): Promise<T> {
    const url = new URL(path, this.options.baseUrl);
    for (const [name, value] of Object.entries((query ?? {}) as QueryValues)) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    // Reads are safe to retry; a POST carries one Idempotency-Key across all its attempts, so the
    // server does its work once however many times a lost answer makes us send it. PATCH and DELETE
    // are not retried after a failure the server may have acted on (a 429 was refused before any work).
    const idempotencyKey = method === "POST" ? crypto.randomUUID() : undefined;
    const idempotent = method === "GET" || idempotencyKey !== undefined;
    const kept = method === "GET" ? this.kept.get(url.href) : undefined;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.options.fetch(url, {
          method,
          headers: {
            Authorization: `Bearer ${this.options.apiKey}`,
            Accept: "application/json",
            ...(body !== undefined && { "Content-Type": "application/json" }),
            ...(idempotencyKey !== undefined && { "Idempotency-Key": idempotencyKey }),
            ...(kept !== undefined && { "If-None-Match": kept.etag }),
          },
          ...(body !== undefined && { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(this.options.timeoutMs),
        });
      } catch (failure) {
        if (!idempotent || attempt >= this.options.maxRetries) throw failure;
        await this.options.sleep(this.backoff(attempt));
        continue;
      }
      if (response.status === 304 && kept !== undefined) {
        this.keep(url.href, kept);
        return JSON.parse(kept.text) as T;
      }
      if (response.ok) {
        const text = await response.text();
        const etag = response.headers.get("etag");
        if (method === "GET" && etag) this.keep(url.href, { etag, text });
        return JSON.parse(text) as T;
      }
      const error = await toError(response);
      if (attempt < this.options.maxRetries) {
        const wait = this.retryDelay(error, idempotent, attempt);
        if (wait !== null) {
          await this.options.sleep(wait);
          continue;
        }
      }
      throw error;
    }
  }

  async *paginate<T>(method: string, path: string, query?: object): AsyncGenerator<T> {
    let offset = 0;
    for (;;) {
      const body = await this.request<{ data: { items: T[]; has_more: boolean } }>(method, path, { ...query, offset });
      yield* body.data.items;
      if (!body.data.has_more || body.data.items.length === 0) return;
      offset += body.data.items.length;
    }
  }

  /** Keeps `answer` as the most recent of at most `conditionalCacheSize`, dropping the least recently used. */
  private keep(href: string, answer: Kept) {
    this.kept.delete(href);
    if (this.options.conditionalCacheSize <= 0) return;
    this.kept.set(href, answer);
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= this.options.conditionalCacheSize) break;
      this.kept.delete(oldest);
    }
  }

  /** How long to wait before retrying, or null when this failure is not worth retrying. */
  private retryDelay(error: FundingDataError, idempotent: boolean, attempt: number): number | null {
    if (error.status === 429) {
      const wait = (error.retryAfter ?? 1) * 1000;
      return wait <= this.options.maxRetryDelayMs ? wait : null;
    }
    if (error.status >= 500 && idempotent) return this.backoff(attempt);
    return null;
  }

  /**
   * Opens a long-lived GET (the event stream) once: the key, the query and `headers`; `timeoutMs` for
   * the answer's headers only, since the body stays open. An error answer is thrown as FundingDataError
   * (retrying is the caller's: a stream decides for itself what to reconnect after).
   */
  async open(path: string, query: object, headers: Record<string, string>, signal: AbortSignal): Promise<Response> {
    const url = new URL(path, this.options.baseUrl);
    for (const [name, value] of Object.entries(query as QueryValues)) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    // One controller for the whole exchange: the caller's signal ends it (also mid-body), the timer only until the headers.
    const timedOut = new AbortController();
    const timer = setTimeout(() => timedOut.abort(new Error(`no answer within ${this.options.timeoutMs} ms`)), this.options.timeoutMs);
    const stop = () => timedOut.abort(signal.reason);
    if (signal.aborted) stop();
    signal.addEventListener("abort", stop);
    try {
      const response = await this.options.fetch(url, {
        method: "GET",
        headers: { Authorization: `Bearer ${this.options.apiKey}`, ...headers },
        signal: timedOut.signal,
      });
      if (!response.ok) throw await toError(response);
      return response;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Exponential backoff with full jitter, so clients that failed together do not retry together. */
  backoff(attempt: number): number {
    const ceiling = Math.min(this.options.maxRetryDelayMs, this.options.retryBaseDelayMs * 2 ** attempt);
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }
}

async function toError(response: Response): Promise<FundingDataError> {
  const text = await response.text();
  const requestId = response.headers.get("x-request-id");
  let body: ErrorBody | undefined;
  try {
    body = JSON.parse(text) as ErrorBody;
  } catch {
    body = undefined;
  }
  const error = body?.error;
  if (!error?.code) {
    return new FundingDataError("UNEXPECTED_RESPONSE", text.slice(0, 200) || response.statusText, response.status, requestId);
  }
  const header = Number(response.headers.get("retry-after"));
  const retryAfter = error.retry_after ?? (Number.isFinite(header) && header > 0 ? header : undefined);
  return new FundingDataError(
    error.code as FundingDataError["code"],
    error.message ?? "",
    response.status,
    body?.meta?.request_id ?? requestId,
    retryAfter,
    error.details,
  );
}
