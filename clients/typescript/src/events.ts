import { FundingDataError } from "./errors.js";
import type { components } from "./openapi-types.js";
import { SseParser } from "./sse-parser.js";
import type { Transport } from "./transport.js";

/** A change event, as GET /v1/events lists it, /v1/stream sends it and webhooks deliver it. */
export type Event = components["schemas"]["Event"];
export type EventType = Event["type"];

/** Event types: a list, or the API's comma-separated text. */
export type EventTypes = readonly EventType[] | string;

export interface EventsQuery {
  /** Start after this event id (the last one you processed); without it, the oldest event kept (7 days). */
  after?: string;
  types?: EventTypes;
  /** Page size, 1 to 1000 (default 100): how many events each request fetches, not how many are yielded. */
  limit?: number;
}

/** GET /v1/stream's filters: those of GET /v1/opportunities, `types`, and `after` to start from. */
export interface StreamQuery {
  exchange?: string;
  exchanges?: readonly string[] | string;
  min_apr?: number;
  symbol?: string;
  types?: EventTypes;
  /** Replay what was written after this event id first; without it, the stream starts with the next event written. */
  after?: string;
}

export interface StreamOptions {
  /** Ends the stream (the iteration returns) when aborted. */
  signal?: AbortSignal;
  /**
   * Reconnect when nothing (no event, no heartbeat) arrived for this long (default 45 000 ms: the server
   * sends a heartbeat every 15 s), since a connection that died silently may never report it.
   */
  idleTimeoutMs?: number;
  /** Connection attempts in a row that may fail (network, 5xx) before the error is thrown (default: no limit). */
  maxReconnectAttempts?: number;
  /** Called on every comment the server sends (`connected`, `heartbeat`, the reason it closed a stream). */
  onComment?: (text: string) => void;
  /** Called before each reconnect, with what ended the previous connection (undefined when the server closed it). */
  onReconnect?: (info: { attempt: number; lastEventId: string | undefined; error: unknown }) => void;
}

const joined = (value: readonly string[] | string | undefined) => (typeof value === "string" || value === undefined ? value : value.join(","));

/**
 * Every event after `query.after`, oldest first, one by one: pages through GET /v1/events following
 * `has_more`, each page asked for after the last event of the one before.
 */
export async function* iterateEvents(transport: Transport, query: EventsQuery = {}): AsyncGenerator<Event> {
  let after = query.after;
  for (;;) {
    const body = await transport.request<{ data: { items: Event[]; has_more: boolean } }>("GET", "/v1/events", {
      after,
      types: joined(query.types),
      limit: query.limit,
    });
    yield* body.data.items;
    const last = body.data.items.at(-1);
    if (!body.data.has_more || !last) return;
    after = last.id;
  }
}

/**
 * GET /v1/stream, consumed: iterate it with `for await` to get each event as it is written. A
 * connection that drops (a network failure, a restart, the server ending it, or `idleTimeoutMs` of
 * silence) is opened again after a backoff with `Last-Event-ID` set to the last event yielded, so the
 * server replays what was written meanwhile: no event is missed or yielded twice while that id is
 * within the 7 days events are kept. 401, 403 and 400 answers are thrown as FundingDataError; a 429
 * (too many streams open) is waited out per its Retry-After up to the client's `maxRetries` times in a
 * row. `close()`, the `signal` or leaving the loop ends it.
 *
 * Before the first event, a reconnect without `after` starts from what is written next: pass `after`
 * (e.g. the last id you stored) to be exact from the very start.
 */
export class EventStream implements AsyncIterable<Event> {
  /** The id of the last event yielded: what a reconnect resumes after. */
  lastEventId: string | undefined;
  /** How many times the stream was opened again after a connection ended. */
  reconnects = 0;
  private closed = false;
  private connection: AbortController | undefined;
  private wakeSleeper: (() => void) | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly query: StreamQuery = {},
    private readonly options: StreamOptions = {},
  ) {
    this.lastEventId = undefined;
    const signal = options.signal;
    if (signal?.aborted) this.closed = true;
    signal?.addEventListener("abort", () => this.close(), { once: true });
  }

  /** Ends the stream: the iteration returns, the connection is closed. */
  close(): void {
    this.closed = true;
    this.connection?.abort();
    this.wakeSleeper?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Event> {
    const { maxRetries, maxRetryDelayMs } = this.transport.options;
    const maxFailures = this.options.maxReconnectAttempts ?? Infinity;
    let failures = 0;
    let refusals = 0;
    try {
      while (!this.closed) {
        const connection = new AbortController();
        this.connection = connection;
        let response: Response;
        try {
          response = await this.transport.open("/v1/stream", this.requestQuery(), this.requestHeaders(), connection.signal);
        } catch (error) {
          if (this.closed) return;
          if (error instanceof FundingDataError && error.status === 429) {
            const wait = (error.retryAfter ?? 1) * 1000;
            if (refusals >= maxRetries || wait > maxRetryDelayMs) throw error;
            refusals++;
            await this.sleep(wait);
            continue;
          }
          const retryable = !(error instanceof FundingDataError) || error.status >= 500;
          if (!retryable || failures >= maxFailures) throw error;
          await this.sleep(this.transport.backoff(failures++));
          continue;
        }
        refusals = 0;
        let ended: unknown;
        try {
          for await (const event of this.read(response, connection)) {
            failures = 0;
            this.lastEventId = event.id;
            yield event;
            if (this.closed) return;
          }
        } catch (error) {
          ended = error;
        }
        if (this.closed) return;
        this.reconnects++;
        this.options.onReconnect?.({ attempt: failures + 1, lastEventId: this.lastEventId, error: ended });
        await this.sleep(this.transport.backoff(failures++));
      }
    } finally {
      this.connection?.abort();
    }
  }

  private requestQuery(): Record<string, string | number | undefined> {
    const q = this.query;
    return { exchange: q.exchange, exchanges: joined(q.exchanges), min_apr: q.min_apr, symbol: q.symbol, types: joined(q.types), after: q.after };
  }

  /** `Last-Event-ID` wins over `after` on the server, so a reconnect resumes after the last event yielded. */
  private requestHeaders(): Record<string, string> {
    return {
      Accept: "text/event-stream",
      "Accept-Encoding": "identity",
      ...(this.lastEventId !== undefined && { "Last-Event-ID": this.lastEventId }),
    };
  }

  /** The events of one connection's body until it ends; a silence longer than idleTimeoutMs aborts it. */
  private async *read(response: Response, connection: AbortController): AsyncGenerator<Event> {
    if (!response.body) return;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const parser = new SseParser();
    const idleMs = this.options.idleTimeoutMs ?? 45_000;
    let idle: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(() => connection.abort(new Error(`nothing received for ${idleMs} ms`)), idleMs);
    };
    try {
      arm();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        arm();
        for (const item of parser.push(decoder.decode(value, { stream: true }))) {
          if (item.kind === "comment") this.options.onComment?.(item.text);
          else if (item.kind === "message") yield JSON.parse(item.message.data) as Event;
        }
      }
    } finally {
      clearTimeout(idle);
      reader.cancel().catch(() => undefined);
    }
  }

  /** Waits `ms`, or less when the stream is closed meanwhile. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeSleeper = done;
    });
  }
}
