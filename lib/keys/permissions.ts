import { z } from "zod";

export const PERMISSIONS = ["opportunities:read", "simulations:read", "portfolio:read", "write"] as const;
export type Permission = (typeof PERMISSIONS)[number];
export const permissionSchema = z.enum(PERMISSIONS);

export const TIERS = ["free", "pro", "desk"] as const;
export type Tier = (typeof TIERS)[number];
export const tierSchema = z.enum(TIERS);

/** Free has no API access at all, so it holds no API permission. */
export const TIER_PERMISSIONS = {
  free: [],
  pro: ["opportunities:read", "simulations:read", "portfolio:read"],
  desk: ["opportunities:read", "simulations:read", "portfolio:read", "write"],
} as const satisfies Record<Tier, readonly Permission[]>;

/**
 * What a key may do right now: the permissions it was restricted to, cut down to what the
 * account's current tier holds. Takes plain strings because the database column is `String[]`;
 * anything not a known permission is dropped. The result is in `PERMISSIONS` order, without repeats.
 */
export function effectivePermissions(keyPermissions: readonly string[], tier: Tier): Permission[] {
  const granted: readonly Permission[] = TIER_PERMISSIONS[tier];
  return PERMISSIONS.filter((permission) => granted.includes(permission) && keyPermissions.includes(permission));
}

/**
 * The permission a key of `tier` needs for a route that asks for `permission`, or for `fallback`
 * on a plan that does not hold `permission` at all: Pro holds no `write`, yet its plan includes
 * webhooks and alert rules, so its keys manage them with `fallback`, in both modes alike, while a
 * Desk key still needs `write` (a Desk key restricted to reading stays read-only).
 */
export function neededPermission(permission: Permission | null, fallback: Permission | undefined, tier: Tier): Permission | null {
  if (permission === null || fallback === undefined) return permission;
  return (TIER_PERMISSIONS[tier] as readonly Permission[]).includes(permission) ? permission : fallback;
}

/** The Prisma `Tier` enum's values, spelled out so this module stays free of the generated client. */
export type DbTier = "FREE" | "PRO" | "DESK";

const TO_DB = { free: "FREE", pro: "PRO", desk: "DESK" } as const satisfies Record<Tier, DbTier>;
const FROM_DB = { FREE: "free", PRO: "pro", DESK: "desk" } as const satisfies Record<DbTier, Tier>;

export function tierToDb(tier: Tier): DbTier {
  return TO_DB[tier];
}

export function tierFromDb(tier: DbTier): Tier {
  return FROM_DB[tier];
}
