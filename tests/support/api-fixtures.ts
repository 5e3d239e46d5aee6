import { actorFromSession, type Actor } from "@/lib/actor";
import type { Db } from "@/lib/db";
import { generateApiKey } from "@/lib/keys/generate";
import { keyModeToDb, type KeyMode } from "@/lib/keys/mode";
import { PERMISSIONS, tierFromDb, tierToDb, type DbTier, type Permission, type Tier } from "@/lib/keys/permissions";
import { publish } from "@/lib/market/opportunities/store";
import { UNKNOWN_PERSISTENCE, type Opportunity } from "@/lib/market/model/types";
import { makeLeg } from "@/tests/support/market/make-leg";
import { publishCarrySet } from "@/lib/market/carry/carry-store";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { dailyBorrow, makeSpot } from "@/tests/support/market/make-spot";

let userCounter = 0;

/** An account of `tier`, its e-mail verified (as an account holding live keys has) unless `verified: false`. */
export async function createUser(db: Db, tier: Tier, { verified = true } = {}) {
  return db.user.create({
    data: {
      email: `user-${Date.now().toString(36)}-${++userCounter}@api.test`,
      passwordHash: "not-used",
      tier: tierToDb(tier),
      emailVerifiedAt: verified ? new Date() : null,
    },
  });
}

/** A stored user as the account area's routes hand them to domain operations: the session's actor. */
export function signedIn(user: { id: string; tier: DbTier }): Actor {
  return actorFromSession({ id: user.id, tier: tierFromDb(user.tier) });
}

/** The services an operation that needs only the database reads, over a test database. */
export function dbServices(db: Db): { db: () => Promise<Db> } {
  return { db: async () => db };
}

/** Inserts a key directly (the account area's rules are tested elsewhere) and returns its secret. */
export async function createKeyFor(
  db: Db,
  userId: string,
  options: { mode?: KeyMode; permissions?: readonly Permission[]; expiresAt?: Date | null; revokedAt?: Date | null } = {},
) {
  const generated = generateApiKey(options.mode ?? "live");
  const record = await db.apiKey.create({
    data: {
      userId,
      name: "test key",
      mode: keyModeToDb(generated.mode),
      prefix: generated.prefix,
      hash: generated.hash,
      permissions: [...(options.permissions ?? PERMISSIONS)],
      expiresAt: options.expiresAt ?? null,
      revokedAt: options.revokedAt ?? null,
    },
  });
  return { secret: generated.key, id: record.id };
}

export function liveOpportunity(symbol: string, apr: number, long = "binance", short = "bybit"): Opportunity {
  const leg = (exchange: string) =>
    makeLeg({
      exchange,
      market: `${symbol}/USDT:USDT`,
      next_funding_at: "2026-11-21T16:00:00.000Z",
      open_interest_usd: 1_000_000,
      volume_24h_usd: 5_000_000,
      observed_at: "2026-11-21T15:59:00.000Z",
    });

  return {
    id: `${symbol}-${long}-${short}`,
    symbol,
    type: "perp_perp",
    long: leg(long),
    short: leg(short),
    apr,
    net_apr: apr - 5,
    funding_spread_8h: apr / 1095 / 100,
    price_spread_bps: 1.5,
    price_spread_unavailable_reason: null,
    open_interest_usd: 1_000_000,
    volume_24h_usd: 5_000_000,
    updated_at: "2026-11-21T15:59:00.000Z",
    persistence: UNKNOWN_PERSISTENCE,
  };
}

/** Replaces the live opportunity set, as an ingestion round does. */
export function seedLiveOpportunities(db: Db, items: Opportunity[], asOf = new Date("2026-11-21T15:59:00Z")) {
  return publish(db, items, { asOf, sample: false });
}

/**
 * A live carry set of BTC and ETH on Binance and Bybit, both perpetuals and both spot markets, Binance
 * lending both assets: 12 items, BTC-spot_perp-binance-bybit (the routes' documented example) among them.
 */
export function seedLiveCarry(db: Db, at = new Date("2026-11-21T15:59:00Z")) {
  const perps = ["BTC", "ETH"].flatMap((base) => [
    makeSnapshot({ exchange: "binance", base, fundingRate: 0.0001 }),
    makeSnapshot({ exchange: "bybit", base, fundingRate: base === "BTC" ? 0.0003 : -0.0002 }),
  ]);
  const spots = ["BTC", "ETH"].flatMap((base) => [
    makeSpot({ exchange: "binance", base, market: `${base}/USDT`, borrow: dailyBorrow(base) }),
    makeSpot({ exchange: "bybit", base, market: `${base}/USDT`, volume24hUsd: 500_000 }),
  ]);
  return publishCarrySet(db, { perps, spots, at });
}

/** BTC long on binance (8h, 0.01 %), short on hyperliquid (1h, 0.005 %), listed at 40 % APR: mixed intervals. */
export function btcBinanceHyperliquid(): Opportunity {
  const base = liveOpportunity("BTC", 40, "binance", "hyperliquid");
  return {
    ...base,
    long: { ...base.long, funding_rate: 0.0001, funding_interval_hours: 8 },
    short: { ...base.short, market: "BTC/USDC:USDC", funding_rate: 0.00005, funding_interval_hours: 1 },
  };
}
