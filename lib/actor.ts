import { PERMISSIONS, TIER_PERMISSIONS, type Permission, type Tier } from "@/lib/keys/permissions";
import type { KeyMode } from "@/lib/keys/mode";
import { planOf } from "@/lib/plans";

/**
 * Who acts, whatever the credential: an account, in one mode, on its current plan, with what it
 * may do. Both front doors produce one: /v1 from an API key (`actorFromKey`), the web app's JSON
 * routes from the signed-in session (`actorFromSession`). Domain operations take it and read no
 * credential of their own; the route's permission rule (lib/api/route-rule.ts) is checked against
 * `permissions` the same way for both.
 */
export interface Actor {
  /** The account's id (the User row). */
  userId: string;
  mode: KeyMode;
  tier: Tier;
  /** What this actor may do now: a key's own permissions cut down to the plan's, or a session's (`sessionPermissions`). */
  permissions: readonly Permission[];
  /** The credential it came from. */
  credential: "key" | "session";
  /** The API key's id when `credential` is "key"; null for a session. */
  keyId: string | null;
}

/** The actor an API key names: its account, mode, plan and effective permissions. */
export function actorFromKey(key: { id: string; userId: string; mode: KeyMode; tier: Tier; permissions: readonly Permission[] }): Actor {
  return { userId: key.userId, mode: key.mode, tier: key.tier, permissions: key.permissions, credential: "key", keyId: key.id };
}

/** The signed-in user as an actor: the owner in person, always in live mode (test mode belongs to test keys). */
export function actorFromSession(user: { id: string; tier: Tier }): Actor {
  return { userId: user.id, mode: "live", tier: user.tier, permissions: sessionPermissions(user.tier), credential: "session", keyId: null };
}

/**
 * What the owner may do in the web app: everything the plan holds, and on a plan with API access
 * also `write`, since a key's narrower rights (Pro keys read only) guard automation, not the
 * owner changing their own portfolio, webhooks or fees by hand. Free holds nothing, as its keys do.
 */
export function sessionPermissions(tier: Tier): Permission[] {
  const granted: readonly Permission[] = TIER_PERMISSIONS[tier];
  return PERMISSIONS.filter((permission) => granted.includes(permission) || (permission === "write" && planOf(tier).features.api));
}

/** Whether the web app offers simulations and a portfolio: the plan's `portfolio` feature. */
export function canUsePortfolio(user: { tier: Tier }): boolean {
  return planOf(user.tier).features.portfolio;
}
