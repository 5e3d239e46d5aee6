import { createHash, timingSafeEqual } from "node:crypto";
import { buildInfo, type BuildInfo } from "@/lib/build-info";
import { configuredDatabase, openServiceDatabase } from "@/lib/db";
import { logger } from "@/lib/observability/logger";
import type { RateLimitStatus } from "@/lib/ratelimit";
import { appServices } from "@/lib/app-services";
import type { IngestionStatus } from "@/lib/market/model/venue-status";
import type { PairingExclusions } from "@/lib/market/model/pairing-exclusions";
import { readPairingExclusions } from "@/lib/market/ingest/pairing-exclusions-store";
import type { ResponseCacheStats } from "@/lib/response-cache/response-cache";

export interface Health extends BuildInfo {
  status: "ok" | "degraded";
  uptime_s: number;
  database: { status: "up" | "down"; driver: "pglite" | "postgres"; latency_ms?: number; error?: string };
  rate_limiter: RateLimitStatus;
  /** The hot reads' cache in this process: entries, bytes held against its budget, hits and misses. */
  response_cache: ResponseCacheStats;
  /** Each venue's health and the latest ingestion round; null while the database is down. */
  market: IngestionStatus | null;
  /**
   * The legs the newest published round paired with none because their price strays from their
   * asset's by more than PAIR_PRICE_BOUND, per venue: a ticker the asset map must fix. Null while
   * the database is down or before a round recorded any.
   */
  pairing: PairingExclusions | null;
}

/** What everyone may see: enough for a load balancer, nothing about the build, venues or stores. */
export type PublicHealth = Pick<Health, "status">;

const DATABASE_TIMEOUT_MS = 2_000;
const log = logger("health");

/**
 * Whether a request may see the details (database latency, limiter, market, build): only with
 * `Authorization: Bearer <HEALTH_DETAILS_TOKEN>`. Without the setting nobody sees them. Compared
 * as SHA-256 digests in constant time, so neither the token nor its length leaks through timing.
 */
export function mayShowHealthDetails(authorization: string | null | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  const token = env.HEALTH_DETAILS_TOKEN;
  if (!token || !authorization) return false;
  const match = /^Bearer (.+)$/i.exec(authorization.trim());
  if (!match) return false;
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}

/** The public answer of GET /healthz: the status alone. */
export function publicHealth(health: Health): PublicHealth {
  return { status: health.status };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** What GET /healthz reports: whether the database answers, and which build is running. */
export async function readHealth(options: { details?: boolean } = {}): Promise<Health> {
  const started = performance.now();
  let database: Health["database"];
  try {
    await withTimeout(
      openServiceDatabase().then(({ db }) => db.$queryRaw`SELECT 1`),
      DATABASE_TIMEOUT_MS,
    );
    database = {
      status: "up",
      driver: configuredDatabase().driver,
      latency_ms: Math.round((performance.now() - started) * 10) / 10,
    };
  } catch (error) {
    // The detail goes to the operator's log; the public answer names no host or credential.
    log.error({ err: error }, "health check: database unreachable");
    database = { status: "down", driver: configuredDatabase().driver, error: "database did not answer" };
  }
  const services = appServices();
  const rateLimiter = services.limiter.status();
  let market: IngestionStatus | null = null;
  let pairing: PairingExclusions | null = null;
  // The market read is for operators only: a public probe costs one SELECT 1, nothing more.
  if (database.status === "up" && options.details !== false) {
    [market, pairing] = await Promise.all([
      withTimeout(services.market("live").status(), DATABASE_TIMEOUT_MS).catch((error: unknown) => {
        log.error({ err: error }, "health check: reading market status failed");
        return null;
      }),
      withTimeout(
        openServiceDatabase().then(({ db }) => readPairingExclusions(db)),
        DATABASE_TIMEOUT_MS,
      ).catch((error: unknown) => {
        log.error({ err: error }, "health check: reading the legs left out by the price bound failed");
        return null;
      }),
    ]);
  }
  return {
    status: database.status === "up" && !rateLimiter.degraded ? "ok" : "degraded",
    ...buildInfo(),
    uptime_s: Math.round(process.uptime()),
    database,
    rate_limiter: { store: rateLimiter.store, degraded: rateLimiter.degraded, ...(rateLimiter.since && { since: rateLimiter.since }) },
    response_cache: services.responseCache.stats(),
    market,
    pairing,
  };
}
