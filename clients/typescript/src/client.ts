import { EventStream, iterateEvents, type Event, type EventsQuery, type StreamOptions, type StreamQuery } from "./events.js";
import { Operations } from "./operations.js";
import { Transport } from "./transport.js";

export interface ClientOptions {
  /** An API key (svc_sk_live_… or svc_sk_test_…); defaults to the FUNDING_DATA_API_KEY environment variable. */
  apiKey?: string;
  /** Where the service runs, e.g. https://data.example.com; defaults to FUNDING_DATA_BASE_URL. */
  baseUrl?: string;
  /** Retries after the first attempt (default 3); 0 turns retrying off. */
  maxRetries?: number;
  /** First backoff after a 5xx or network failure, doubled each retry (default 500 ms). */
  retryBaseDelayMs?: number;
  /** Longest single wait (default 30 s); a 429 asking for longer is thrown at once. */
  maxRetryDelayMs?: number;
  /** Per attempt (default 30 s). */
  timeoutMs?: number;
  /**
   * How many GET answers to keep with their ETag (default 100): asked for again, they are sent
   * with If-None-Match and a 304 returns the kept body. 0 turns this off.
   */
  conditionalCacheSize?: number;
  /** Another fetch implementation, e.g. one with a proxy agent. */
  fetch?: typeof fetch;
}

function fromEnvironment(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.[name] || undefined;
}

/**
 * The Funding Opportunity Data Service /v1 API: one typed method per operation (see Operations),
 * `iterate…` methods over every page of a list, errors thrown as FundingDataError; beside them, by
 * hand, the change events: `iterateEvents` (GET /v1/events, page by page) and `streamEvents`
 * (GET /v1/stream, resumed after every dropped connection).
 */
export class FundingDataClient extends Operations {
  constructor(options: ClientOptions = {}) {
    const apiKey = options.apiKey ?? fromEnvironment("FUNDING_DATA_API_KEY");
    const baseUrl = options.baseUrl ?? fromEnvironment("FUNDING_DATA_BASE_URL");
    if (!apiKey) throw new Error("No API key: pass { apiKey } or set FUNDING_DATA_API_KEY");
    if (!baseUrl) throw new Error("No base URL: pass { baseUrl } or set FUNDING_DATA_BASE_URL");
    super(
      new Transport({
        apiKey,
        baseUrl,
        maxRetries: options.maxRetries ?? 3,
        retryBaseDelayMs: options.retryBaseDelayMs ?? 500,
        maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
        timeoutMs: options.timeoutMs ?? 30_000,
        conditionalCacheSize: options.conditionalCacheSize ?? 100,
        fetch: options.fetch ?? ((input, init) => fetch(input, init)),
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      }),
    );
  }

  /**
   * Every change event after `query.after` (without it, the oldest kept), oldest first, one by one,
   * paging through GET /v1/events.
   */
  iterateEvents(query: EventsQuery = {}): AsyncGenerator<Event> {
    return iterateEvents(this.transport, query);
  }

  /**
   * The change events as they are written (GET /v1/stream): `for await (const event of api.streamEvents(…))`.
   * Reconnects by itself with `Last-Event-ID` after a dropped connection; see EventStream.
   */
  streamEvents(query: StreamQuery = {}, options: StreamOptions = {}): EventStream {
    return new EventStream(this.transport, query, options);
  }
}
