import { z } from "zod";
import type { AppServices } from "@/lib/app-services";
import { AppError, fieldError } from "@/lib/errors";
import type { FeedEvent, FeedSubscription } from "@/lib/events/event-feed";
import { concatFrames, joinedFrames, sseFrame } from "@/lib/events/event-feed";
import { eventSequence } from "@/lib/events/event-types";
import { assertWithinRetention, isVisibleTo, readEventPage } from "@/lib/events/read-events";
import { streamMatches, type StreamFilter, type StreamQuery } from "@/lib/events/stream-filter";
import { readStreamToken, type StreamTokenFilters } from "@/lib/events/stream-token";
import { parseAuthorizationHeader } from "@/lib/keys/authorization-header";
import { keyEvents } from "@/lib/keys/key-events";
import type { VerifiedKey } from "@/lib/keys/verify-key";
import { logger } from "@/lib/observability/logger";
import { parseQuery } from "@/lib/query-params";
import type { ApiContext } from "./route";
import { actorFromKey } from "@/lib/actor";
import { assertAllowed } from "./route-rule";
import { STREAM_DEFINITION } from "./stream-definition";
import { assertNotThrottled, failedAuthBucket, recordFailedAuth } from "./failed-auth-throttle";
import { admitKey, authenticate } from "./with-api-key";

/**
 * GET /v1/stream is the one /v1 operation outside API_ROUTES and defineRoute: its answer is a
 * Server-Sent Events body that stays open, not an envelope, so the generated clients, the OpenAPI
 * contract tests and the fuzzers (which read every route's answer whole) cannot treat it as a route.
 * It goes through the same steps all the same: authentication and the rate limit (`authenticate`),
 * the permission, a strict query, and errors in the usual envelope (docs/ARCHITECTURE.md); the
 * OpenAPI document describes it from STREAM_DEFINITION.
 */
export const STREAM_PATH = STREAM_DEFINITION.path;
const PERMISSION = STREAM_DEFINITION.permission;

/** How much a stream may hold unsent, beyond its latest chunk, for a client that does not read before it is closed (it resumes with Last-Event-ID). */
const MAX_UNSENT_BYTES = 4 * 1024 * 1024;
/** Events read per query while replaying from the log. */
const REPLAY_PAGE = 500;
/** Asks an EventSource to reconnect after 3 s (sent first). */
const PREAMBLE = "retry: 3000\n: connected\n\n";

const encoder = new TextEncoder();
const log = logger("stream");

/** The sequence to resume after: `Last-Event-ID` (what an EventSource sends on reconnecting) wins over `?after=`. */
function resumeFrom(c: ApiContext, after: bigint | undefined): { after: bigint | undefined; field: string } {
  const header = c.req.header("last-event-id")?.trim();
  if (!header) return { after, field: "after" };
  const sequence = eventSequence(header);
  if (sequence === null) throw fieldError("Last-Event-ID", "Must be an event id: evt_ and 16 digits, as an event's `id`");
  return { after: sequence, field: "Last-Event-ID" };
}

/** GET /v1/stream's query when a stream token fixes the filters: only where to resume. */
const tokenQuery = z.strictObject({ token: z.string(), after: STREAM_DEFINITION.query.shape.after });

/**
 * A stream token in place of the Authorization header (lib/events/stream-token.ts): its signature
 * and expiry, then its key as any request's (revoked, expired, the IP allowlist, the rate limit).
 * Unknown, altered and expired tokens, and those of a key no longer in force, are 401.
 */
async function authenticateToken(c: ApiContext, services: AppServices, token: string): Promise<{ key: VerifiedKey; filters: StreamTokenFilters }> {
  if (c.req.header("authorization") !== undefined) throw fieldError("token", "Send either an Authorization header or a stream token, not both");
  const address = c.req.header("x-real-ip") || undefined;
  // Failed tokens count as failed keys do, in a bucket of the address and the token.
  const bucket = address === undefined ? undefined : failedAuthBucket(address, token);
  assertNotThrottled(services.limiter, bucket);
  const claims = readStreamToken(services.streamTokenKey, token, Date.now());
  if (claims === "expired") throw new AppError("UNAUTHORIZED", "The stream token has expired: mint another with POST /v1/stream-tokens");
  const key = claims && (await services.verifier.verifyId(claims.key));
  if (!claims || !key || key.userId !== claims.user || key.mode !== claims.mode) {
    await recordFailedAuth(services.limiter, bucket);
    throw new AppError("UNAUTHORIZED", "Invalid stream token, or its key is no longer in force");
  }
  return { key: await admitKey(c, services, key, address, bucket), filters: claims.filters };
}

export async function streamEvents(c: ApiContext, services: AppServices): Promise<Response> {
  const url = new URL(c.req.url);
  const token = url.searchParams.get("token");
  let key: VerifiedKey;
  let query: StreamQuery;
  if (token !== null) {
    const authenticated = await authenticateToken(c, services, token);
    key = authenticated.key;
    query = { ...authenticated.filters, after: parseQuery(url, tokenQuery).after };
  } else {
    key = await authenticate(c, services);
    query = parseQuery(url, STREAM_DEFINITION.query);
  }
  assertAllowed(STREAM_DEFINITION, actorFromKey(key));
  const { after, field } = resumeFrom(c, query.after);
  if (after !== undefined) await assertWithinRetention(await services.db(), after, field);
  const headers = {
    ...c.get("rateLimitHeaders"),
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache, no-transform",
    // Proxies such as nginx must pass each event on at once rather than buffer the body.
    "X-Accel-Buffering": "no",
  };
  if (c.req.method === "HEAD") return new Response(null, { status: 200, headers });
  // The plan's `streams` (STREAM_MAX_PRO and STREAM_MAX_DESK replace them).
  const cap = services.plans(key.tier).streams;
  const release = services.streamSlots.acquire(key.userId, cap);
  if (!release) {
    // A stream that went away unannounced is noticed at its next heartbeat, when the write fails.
    const retryAfter = Math.ceil(services.eventsConfig.STREAM_HEARTBEAT_MS / 1000);
    throw new AppError("RATE_LIMITED", `At most ${cap} streams may be open at once for this account; close one first`, { retryAfter });
  }
  // The key is checked again while the stream runs: by the secret sent, or by id for a token.
  const secret = parseAuthorizationHeader(c.req.header("authorization"));
  const keyId = key.id;
  const recheck = token !== null ? () => services.verifier.verifyId(keyId) : () => services.verifier.verify(secret.ok ? secret.key : "");
  const { after: _after, ...filters } = query;
  const filter: StreamFilter = { mode: key.mode, ...filters };
  const address = c.req.header("x-real-ip") || undefined;
  const stream = openEventStream({ services, key, recheck, address, filter, after, release, signal: c.req.raw.signal });
  return new Response(stream, { status: 200, headers });
}

interface StreamOptions {
  services: AppServices;
  key: VerifiedKey;
  /** The key as it stands now (null: no longer in force). */
  recheck: () => Promise<VerifiedKey | null>;
  /** The client's address, as authentication read it: the key's IP allowlist is checked again against it. */
  address: string | undefined;
  filter: StreamFilter;
  after: bigint | undefined;
  release: () => void;
  signal: AbortSignal;
}

/**
 * The stream's body: the events after `after` replayed from the log up to where the process's feed
 * stood when the stream subscribed, then the feed's events live, each once, in order; a heartbeat
 * comment every STREAM_HEARTBEAT_MS; closed when the key stops being valid or its IP allowlist stops
 * admitting the client's address (checked when any key changes in this process, and every
 * STREAM_KEY_CHECK_MS for changes elsewhere), when the client
 * goes, or when the client stops reading.
 */
function openEventStream(options: StreamOptions): ReadableStream<Uint8Array> {
  const { services, key, filter } = options;
  const config = services.eventsConfig;
  let closed = false;
  let subscription: FeedSubscription | undefined;
  const timers: NodeJS.Timeout[] = [];
  let stopKeyEvents: (() => void) | undefined;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let drained: (() => void) | undefined;

  const cleanup = () => {
    closed = true;
    for (const timer of timers) clearInterval(timer);
    stopKeyEvents?.();
    subscription?.close();
    options.release();
    drained?.();
    options.signal.removeEventListener("abort", cleanup);
  };
  const end = (reason: string) => {
    if (closed) return;
    controller.enqueue(encoder.encode(`: ${reason}\n\n`));
    cleanup();
    controller.close();
  };
  let unsentBeforeAppend = 0;
  /** `continued`: the chunk goes on from the one before, parts of one append (FeedListener). */
  const write = (text: string | Uint8Array, continued = false) => {
    if (closed) return;
    // Judged by what was left unsent before this append, not with it: a round's events come as
    // chunks of several megabytes in all, which a client reading takes in its turn; a client that
    // has not taken what came before is not reading.
    const unsent = -(controller.desiredSize ?? 0);
    if (!continued) unsentBeforeAppend = unsent;
    if (unsentBeforeAppend > MAX_UNSENT_BYTES) return end("stream closed: the client is not reading; reconnect with Last-Event-ID");
    controller.enqueue(typeof text === "string" ? encoder.encode(text) : text);
  };
  /** Resolves once the client has taken what was queued (while replaying, so a slow client does not fill memory). */
  const whenDrained = () =>
    (controller.desiredSize ?? 1) > 0 || closed ? Promise.resolve() : new Promise<void>((resolve) => (drained = resolve));

  let lastSent = options.after ?? 0n;
  let pending: FeedEvent[] | null = [];
  // A batch is written as one chunk: the feed's shared bytes when the stream takes all of it (the
  // usual case with 1,000 streams and no filter), else its own join of the frames it takes.
  const deliver = (events: readonly FeedEvent[], continued = false) => {
    const taken: Uint8Array[] = [];
    for (const e of events) {
      if (e.sequence <= lastSent) continue;
      lastSent = e.sequence;
      if (isVisibleTo(e, key.mode, key.userId) && streamMatches(e.event, filter)) taken.push(e.frame);
    }
    if (taken.length === 0) return;
    write(taken.length === events.length ? joinedFrames(events) : concatFrames(taken), continued);
  };

  const checkKey = async () => {
    const now = await options.recheck();
    if (!now || !now.permissions.includes(PERMISSION)) end("stream closed: the key is no longer valid");
    else if (now.ipAllowlist && !now.ipAllowlist.allows(options.address)) end("stream closed: the key's IP allowlist no longer admits this address");
  };
  const check = () => void checkKey().catch((error: unknown) => log.error({ err: error, keyId: key.id }, "checking a stream's key failed"));

  const run = async () => {
    const sub = await services.eventFeed.subscribe((events, continued) => (pending ? pending.push(...events) : deliver(events, continued)));
    if (closed) return sub.close();
    subscription = sub;
    if (options.after === undefined || options.after >= sub.position) {
      lastSent = lastSent > sub.position ? lastSent : sub.position;
    } else {
      // Replays (after, position] from the log; the feed has everything later.
      const db = await services.db();
      let cursor = options.after;
      for (;;) {
        const page = await readEventPage(db, key, { after: cursor, types: filter.types, limit: REPLAY_PAGE, through: sub.position });
        if (closed) return;
        for (const event of page.items) if (streamMatches(event, filter)) write(sseFrame(event));
        if (!page.has_more) break;
        cursor = eventSequence(page.items.at(-1)!.id)!;
        await whenDrained();
        if (closed) return;
      }
      lastSent = sub.position;
    }
    const held = pending ?? [];
    pending = null;
    deliver(held);
  };

  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        controller.enqueue(encoder.encode(PREAMBLE));
        options.signal.addEventListener("abort", cleanup);
        timers.push(setInterval(() => write(": heartbeat\n\n"), config.STREAM_HEARTBEAT_MS));
        timers.push(setInterval(check, config.STREAM_KEY_CHECK_MS));
        for (const timer of timers) timer.unref();
        // A revocation in this process drops the verifier's cache synchronously, before this listener runs.
        stopKeyEvents = keyEvents().subscribe((change) => {
          if (change.keyId === key.id || change.userId === key.userId) check();
        });
        run().catch((error: unknown) => {
          log.error({ err: error, keyId: key.id }, "an event stream failed");
          end("stream closed: an internal error; reconnect with Last-Event-ID");
        });
      },
      pull() {
        drained?.();
        drained = undefined;
      },
      cancel() {
        cleanup();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );
}
