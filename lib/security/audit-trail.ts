import type { AuditAction } from "@/lib/audit";
import type { Db } from "@/lib/db";
import type { Tier } from "@/lib/keys/permissions";
import { planOf } from "@/lib/plans";

/** The page shows this many events, newest first, and says so when there are more. */
export const AUDIT_TRAIL_LIMIT = 100;

const ACTION_LABELS: Record<AuditAction, string> = {
  "account.created": "Account created",
  sign_in: "Signed in",
  "key.created": "API key created",
  "key.revoked": "API key revoked",
  "key.rolled": "API key rolled (replaced by a new key)",
  "key.allowlist_changed": "API key IP allowlist changed",
  "tier.changed": "Plan changed",
  "billing.subscription_cancelled": "Duplicate Stripe subscription cancelled (unused time credited)",
  "billing.comped": "Plan granted without charge",
  "email.verified": "E-mail address verified",
  "password.reset": "Password reset by e-mail link",
  "operator.granted": "Operator rights granted",
  "operator.revoked": "Operator rights revoked",
  "signin.failed": "Failed sign-in (wrong password)",
  sign_out: "Signed out",
  "session.revoked": "Signed out a session",
  "sessions.revoked": "Signed out everywhere",
  "password.changed": "Password changed",
  "fees.changed": "Trading fees changed",
  "webhook.created": "Webhook endpoint added",
  "webhook.updated": "Webhook endpoint changed",
  "webhook.deleted": "Webhook endpoint deleted",
  "webhook.secret_rolled": "Webhook signing secret rolled",
  "webhook.disabled": "Webhook endpoint disabled after 3 days of failed deliveries",
  "alert_rule.created": "Alert rule added",
  "alert_rule.updated": "Alert rule changed",
  "alert_rule.deleted": "Alert rule deleted",
};

// "pro -> desk", or "someone@example.com: pro -> desk" when an operator changed another account.
const TIER_CHANGE = /^(.*?)(free|pro|desk) -> (free|pro|desk)$/;
const KEY_ACTIONS = new Set(["key.created", "key.revoked", "key.rolled", "key.allowlist_changed"]);

export interface AuditTrailEntry {
  id: string;
  at: Date;
  action: string;
  /** The action in plain words; an action this code does not know yet is shown as recorded. */
  label: string;
  /** What the action was done to, in words: a key's name and prefix rather than its id. */
  target: string | null;
  ip: string | null;
  userAgent: string | null;
}

export interface AuditTrail {
  entries: AuditTrailEntry[];
  total: number;
}

/**
 * The events a user caused and the events about their account (an operator changing their plan
 * or revoking their key), newest first, capped at AUDIT_TRAIL_LIMIT.
 */
export async function auditTrail(db: Db, userId: string, limit: number = AUDIT_TRAIL_LIMIT): Promise<AuditTrail> {
  const where = { OR: [{ actorId: userId }, { subjectId: userId }] };
  const [events, total] = await Promise.all([
    db.auditEvent.findMany({ where, orderBy: [{ at: "desc" }, { id: "desc" }], take: limit }),
    db.auditEvent.count({ where }),
  ]);
  const keyIds = new Set<string>();
  for (const event of events) {
    if (KEY_ACTIONS.has(event.action) && event.target) for (const id of event.target.split(" -> ")) keyIds.add(id);
  }
  // Only keys the events name, and those only reach other accounts' keys for an operator's own trail.
  const keys = keyIds.size
    ? await db.apiKey.findMany({
        where: { id: { in: [...keyIds] } },
        select: { id: true, name: true, prefix: true, userId: true, user: { select: { email: true } } },
      })
    : [];
  const keyNames = new Map(
    keys.map((key) => [key.id, `“${key.name}” ${key.prefix}${key.userId === userId ? "" : ` of ${key.user.email}`}`]),
  );

  const describeTarget = (action: string, target: string | null): string | null => {
    if (!target) return null;
    if (KEY_ACTIONS.has(action)) return target.split(" -> ").map((id) => keyNames.get(id) ?? `key ${id}`).join(" → ");
    const tierChange = action === "tier.changed" ? TIER_CHANGE.exec(target) : null;
    if (tierChange) return `${tierChange[1]}${planOf(tierChange[2] as Tier).name} → ${planOf(tierChange[3] as Tier).name}`;
    // Sign-up and sign-in name the account itself, which says nothing on the account's own page.
    if (target === userId) return null;
    return target;
  };

  return {
    total,
    entries: events.map((event) => ({
      id: event.id,
      at: event.at,
      action: event.action,
      label:
        ((ACTION_LABELS as Record<string, string>)[event.action] ?? event.action) +
        // A failed sign-in has no known actor: it may be the owner's typo or a stranger's guess.
        // Null is the system itself (billing following Stripe, a roll's grace ending): the target says why.
        (event.actorId !== null && event.actorId !== userId && event.action !== "signin.failed" ? " by an operator" : ""),
      target: describeTarget(event.action, event.target),
      ip: event.ip,
      userAgent: event.userAgent,
    })),
  };
}
