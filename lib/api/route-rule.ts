import type { Actor } from "@/lib/actor";
import { neededPermission, type Permission } from "@/lib/keys/permissions";
import { missingPermission } from "./auth-errors";

/**
 * Who may call an operation, declared once on its /v1 route (lib/api/route.ts) and read by both
 * credentials: withApiKey for a key, withSession / sessionRoute for the web app's session.
 */
export interface RouteRule {
  /** The permission the actor needs; null when any authenticated actor may call it. */
  permission: Permission | null;
  /** On a plan without `permission` that still includes the feature, the permission needed instead (lib/keys/permissions.ts). */
  permissionOnPlansWithout?: Permission;
}

/** 403 FORBIDDEN naming the permission and the plans holding it, when the actor lacks what the rule asks. */
export function assertAllowed(rule: RouteRule, actor: Pick<Actor, "tier" | "permissions">): void {
  const permission = neededPermission(rule.permission, rule.permissionOnPlansWithout, actor.tier);
  if (permission && !actor.permissions.includes(permission)) throw missingPermission(permission);
}
