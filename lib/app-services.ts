import { readEventsConfig, type EventsConfig } from "@/lib/config/events-config";
import { getDb, type Db } from "@/lib/db";
import { EventFeed } from "@/lib/events/event-feed";
import { sandboxTickStart } from "@/lib/events/sandbox-tick-events";
import { StreamSlots } from "@/lib/events/stream-slots";
import { keyEvents } from "@/lib/keys/key-events";
import { LastUsedRecorder } from "@/lib/keys/last-used";
import type { KeyMode } from "@/lib/keys/mode";
import { streamTokenKey } from "@/lib/events/stream-token";
import type { Tier } from "@/lib/keys/permissions";
import { KeyVerifier } from "@/lib/keys/verify-key";
import { liveDepthSources } from "@/lib/market/books/live-depth-sources";
import { liveMarketDepth, type LiveMarketDepthOptions } from "@/lib/market/books/live-market-depth";
import type { VenueDepthSources } from "@/lib/market/books/market-depth";
import { readIngestConfig } from "@/lib/market/ingest/ingest-config";
import { liveMarket } from "@/lib/market/ingest/live-market";
import type { PublishedCarry } from "@/lib/market/ingest/carry-round";
import { LiveCarry } from "@/lib/market/carry/live-carry";
import { LiveOpportunities, type AppliedBatch, type AppliedRound } from "@/lib/market/opportunities/live-opportunities";
import type { Market } from "@/lib/market/market";
import { recordedMarketDepth } from "@/lib/market/sample/recorded-depth";
import { sandboxMarket } from "@/lib/market/sandbox/sandbox-market";
import { createRateLimiter, type RateLimiterService } from "@/lib/ratelimit";
import { ResponseCache, responseCacheBudget } from "@/lib/response-cache/response-cache";
import { liveServers } from "@/lib/process/server-instances";
import { processSingleton } from "@/lib/singleton";
import { configuredPlans, type PlanLimits } from "@/lib/plans";
import { UsageRecorder } from "@/lib/usage/usage-recorder";
import { readWebhookConfig } from "@/lib/webhooks/webhook-config";

/**
 * The one container of what domain code and both front doors (/v1 and the web app) need from
 * outside: the database, key verification, the rate limiter, and the market of each key mode.
 * Tests build their own around a test database with `createAppServices`.
 */
export interface AppServices {
  db: () => Promise<Db>;
  verifier: KeyVerifier;
  limiter: RateLimiterService;
  lastUsed: LastUsedRecorder;
  /** Counts every /v1 answer to a verified key in memory and adds them to ApiUsageHourly in batches. */
  usage: UsageRecorder;
  /** The market a mode reads: live keys and the web app live data, test keys the sandbox, never live data. */
  market: (mode: KeyMode) => Market;
  /**
   * Told by this process's ingestion that it published: the live set holds a round's set as it is,
   * and reloads after anything else (the offline sample).
   */
  opportunitiesPublished: (round?: AppliedRound) => void | Promise<void>;
  /** Told by this process's micro-batch publisher that a batch committed: the live set splices it in. */
  applyOpportunityBatch: (batch: AppliedBatch) => void;
  /**
   * This process published a carry set (lib/market/carry/carry-store.ts): its live Market serves the
   * round's as it is, and reads anything else (the offline sample) back at the next request.
   */
  carryPublished: (carry?: PublishedCarry) => void;
  /**
   * With PostgreSQL, hears the sets other processes publish (a worker's rounds and batches) and
   * catches up at once, rather than at the next version check.
   */
  followOpportunitySet: (databaseUrl: string) => { ready: Promise<void>; stop: () => Promise<void> };
  /**
   * The hot reads' answers, built once per published set (lib/api/cached-read.ts). Keyed on the
   * set `market(mode).opportunities()` returns, so a reload of the set retires them by itself.
   */
  responseCache: ResponseCache;
  /** A venue without a success for this long reports `stale` (three missed rounds). */
  venueStaleAfterMs: number;
  /** WEBHOOK_ALLOW_PRIVATE_URLS: webhook endpoints may be http:// and name private addresses (tests, private deployments). */
  allowPrivateWebhookUrls: boolean;
  /** The event log's settings: the stream's heartbeat and key checks, read once. */
  eventsConfig: EventsConfig;
  /** This process's one reader of the event log, which its /v1/stream connections share. */
  eventFeed: EventFeed;
  /** Open streams per account in this process (the plan's `streams`). */
  streamSlots: StreamSlots;
  /** Signs and verifies stream tokens (lib/events/stream-token.ts), derived from NEXTAUTH_SECRET. */
  streamTokenKey: Buffer;
  /** Each plan's numbers as this process enforces them: the plans table with RATE_LIMIT_SCALE and STREAM_MAX_* applied, read once. */
  plans: PlanLimits;
  /** Requests per minute per API key of a tier: `plans(tier).requestsPerMinute`. */
  requestsPerMinute: (tier: Tier) => number;
  /**
   * Writes what the batched recorders (last use, usage) still hold and stops their timers: on
   * shutdown, and in tests before their database closes.
   */
  stopRecorders: () => Promise<void>;
}

/** What tests and benchmarks replace in the services besides the database and the environment. */
export interface AppServiceOptions {
  /** Where live keys' quotes read the venues' books and tiers; default every venue's live source (lib/market/books/live-depth-sources.ts). */
  depthSources?: VenueDepthSources;
  /** How long those books are reused and waited for. */
  depth?: LiveMarketDepthOptions;
}

export function createAppServices(db: () => Promise<Db>, env: NodeJS.ProcessEnv = process.env, options: AppServiceOptions = {}): AppServices {
  const venueStaleAfterMs = 3 * readIngestConfig(env).INGEST_INTERVAL_MS;
  const eventsConfig = readEventsConfig(env);
  const liveOpportunities = new LiveOpportunities(db);
  const liveCarry = new LiveCarry(db);
  const depth = { venues: liveMarketDepth(options.depthSources ?? liveDepthSources(), options.depth), sample: recordedMarketDepth() };
  const markets: Record<KeyMode, Market> = { live: liveMarket(db, { opportunities: liveOpportunities, carry: liveCarry }, venueStaleAfterMs, depth), test: sandboxMarket(sandboxClock(eventsConfig.SANDBOX_TICK_MS)) };
  const plans = configuredPlans(env);
  const lastUsed = new LastUsedRecorder(db);
  lastUsed.start();
  const usage = new UsageRecorder(db);
  usage.start();
  return {
    db,
    verifier: new KeyVerifier(db, keyEvents()),
    limiter: createRateLimiter(env, { prefix: "v1", liveServers }),
    lastUsed,
    usage,
    market: (mode) => markets[mode],
    opportunitiesPublished: (round) => (round ? liveOpportunities.applyRound(round) : liveOpportunities.invalidate()),
    applyOpportunityBatch: (batch) => liveOpportunities.applyBatch(batch),
    carryPublished: (carry) => (carry ? liveCarry.hold(carry.version, carry.asOf, carry.columns) : liveCarry.invalidate()),
    followOpportunitySet: (databaseUrl) => liveOpportunities.listen(databaseUrl),
    responseCache: new ResponseCache(responseCacheBudget(env)),
    venueStaleAfterMs,
    allowPrivateWebhookUrls: readWebhookConfig(env).WEBHOOK_ALLOW_PRIVATE_URLS,
    eventsConfig,
    eventFeed: new EventFeed(db, eventsConfig.STREAM_POLL_MS),
    streamSlots: new StreamSlots(),
    streamTokenKey: streamTokenKey(env),
    plans,
    requestsPerMinute: (tier) => plans(tier).requestsPerMinute,
    stopRecorders: async () => {
      await Promise.all([lastUsed.stop(), usage.stop()]);
    },
  };
}

/**
 * The clock the sandbox market reads: a tick longer than the sandbox's own minute holds the market
 * at the tick's start, so test keys read the state the tick's events describe. A one-minute tick is
 * that minute already, and the clock is left as it is (data ages on /v1/exchanges keep counting).
 */
function sandboxClock(tickMs: number): (() => Date) | undefined {
  return tickMs === 60_000 ? undefined : () => sandboxTickStart(Date.now(), tickMs);
}

/** The process's services, shared by server.ts's API app and the web app's pages and routes. */
export function appServices(): AppServices {
  return processSingleton("app-services", () => createAppServices(getDb));
}
