import type { Db } from "@/lib/db";
import { TIERS, tierToDb, type Tier } from "@/lib/keys/permissions";

export interface TierCounts {
  users: Record<Tier, number>;
  /** Keys that authenticate right now, by their owner's current tier. */
  activeKeys: Record<Tier, number>;
}

/**
 * The operator console's headline numbers. "Active" matches keyStatus(): a key rolled with a
 * grace period has revokedAt in the future and still counts until that moment passes.
 */
export async function tierCounts(db: Db, now: Date = new Date()): Promise<TierCounts> {
  const grouped = await db.user.groupBy({ by: ["tier"], _count: { _all: true } });
  const keyCounts = await Promise.all(
    TIERS.map((tier) =>
      db.apiKey.count({
        where: {
          user: { tier: tierToDb(tier) },
          AND: [{ OR: [{ revokedAt: null }, { revokedAt: { gt: now } }] }, { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] }],
        },
      }),
    ),
  );
  const users = { free: 0, pro: 0, desk: 0 };
  const activeKeys = { free: 0, pro: 0, desk: 0 };
  for (const [index, tier] of TIERS.entries()) {
    users[tier] = grouped.find((row) => row.tier === tierToDb(tier))?._count._all ?? 0;
    activeKeys[tier] = keyCounts[index] ?? 0;
  }
  return { users, activeKeys };
}
