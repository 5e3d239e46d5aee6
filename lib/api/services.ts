import { getDb, type Db } from "@/lib/db";
import { keyEvents } from "@/lib/keys/key-events";
import { LastUsedRecorder } from "@/lib/keys/last-used";
import { KeyVerifier } from "@/lib/keys/verify-key";
import type { KeyMode } from "@/lib/keys/mode";
import { readIngestConfig } from "@/lib/market/ingest/ingest-config";
import { LiveOpportunities } from "@/lib/market/live-opportunities";
import type { OpportunitySnapshot } from "@/lib/market/opportunity-query";
import { sandboxSnapshot } from "@/lib/market/sandbox-snapshot";
import { createRateLimiter, type RateLimiterService } from "@/lib/ratelimit";
import { processSingleton } from "@/lib/singleton";

/** Everything the API app needs from outside; tests build their own around a test database. */
export interface ApiServices {
  db: () => Promise<Db>;
  verifier: KeyVerifier;
  limiter: RateLimiterService;
  lastUsed: LastUsedRecorder;
  /** Live keys read live data; test keys read the generated sandbox, never live data. */
  opportunities: (mode: KeyMode) => Promise<OpportunitySnapshot>;
  /** Told by an ingestion round in this process that it published: the live set reloads now. */
  invalidateOpportunities: () => void;
  /** A venue without a success for this long reports `stale` (three missed rounds). */
  venueStaleAfterMs: number;
}

export function createApiServices(db: () => Promise<Db>, env: NodeJS.ProcessEnv = process.env): ApiServices {
  const live = new LiveOpportunities(db);
  const lastUsed = new LastUsedRecorder(db);
  lastUsed.start();
  return {
    db,
    verifier: new KeyVerifier(db, keyEvents()),
    limiter: createRateLimiter(env, { prefix: "v1" }),
    lastUsed,
    opportunities: async (mode) => (mode === "live" ? live.current() : sandboxSnapshot(new Date())),
    invalidateOpportunities: () => live.invalidate(),
    venueStaleAfterMs: 3 * readIngestConfig(env).INGEST_INTERVAL_MS,
  };
}

/** The process's services, shared by server.ts and the Next catch-all route. */
export function apiServices(): ApiServices {
  return processSingleton("api-services", () => createApiServices(getDb));
}
