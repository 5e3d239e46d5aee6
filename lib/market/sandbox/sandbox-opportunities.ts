import { computeOpportunities } from "../opportunities/rank-opportunities";
import type { Opportunity } from "../model/types";
import { DEFAULT_SANDBOX_SEED, SANDBOX_ASSET_COUNT, generateSandboxMarket, type SandboxMarketOptions } from "./generate-sandbox-market";
import { utcMinute } from "./utc-minute";

export interface SandboxOpportunitiesOptions extends SandboxMarketOptions {
  /** Passed to computeOpportunities for `net_apr`; default its DEFAULT_HOLDING_DAYS. */
  holdingDays?: number;
}

export interface SandboxOpportunities {
  /** ISO 8601 UTC start of the minute, as `generateSandboxMarket(...).asOf`. */
  asOf: string;
  /**
   * Ranked as computeOpportunities ranks them, the stale venue's legs included: they are its last
   * good snapshots, observed minutes ago, so the API serves them flagged `stale`.
   */
  opportunities: readonly Opportunity[];
}

/*
 * Two entries: every request in a minute shares one scan, and requests straddling a minute boundary
 * (a slow one finishing while the next minute's arrive) do not evict each other. Results are frozen
 * because they are shared between callers.
 */
const CACHE_SIZE = 2;
const cache = new Map<string, SandboxOpportunities>();

/**
 * Ranked opportunities of the sandbox market for the minute containing `at`. The stale venue's last
 * good snapshots are paired too: a live round leaves out a venue whose refresh failed, but a live set
 * that outlives its venues' freshness (stalled ingestion) is served with their legs flagged `stale`,
 * and client authors need that case at a fixed place to test against. The same arguments within a
 * minute return the same frozen object.
 */
export function sandboxOpportunities(at: Date, options: SandboxOpportunitiesOptions = {}): SandboxOpportunities {
  const { holdingDays, ...marketOptions } = options;
  const key = JSON.stringify([
    utcMinute(at),
    marketOptions.seed ?? DEFAULT_SANDBOX_SEED,
    marketOptions.assets ?? SANDBOX_ASSET_COUNT,
    holdingDays ?? null,
  ]);
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }

  const market = generateSandboxMarket(at, marketOptions);
  const { opportunities } = computeOpportunities(market.snapshots, holdingDays === undefined ? {} : { holdingDays });
  const result: SandboxOpportunities = Object.freeze({
    asOf: market.asOf,
    opportunities: Object.freeze(opportunities.map(freezeOpportunity)),
  });

  cache.set(key, result);
  for (const oldest of cache.keys()) {
    if (cache.size <= CACHE_SIZE) break;
    cache.delete(oldest);
  }
  return result;
}

function freezeOpportunity(opportunity: Opportunity): Opportunity {
  Object.freeze(opportunity.long);
  Object.freeze(opportunity.short);
  return Object.freeze(opportunity);
}
