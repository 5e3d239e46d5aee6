import { recordAudit, type RequestOrigin } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { tierToDb, type Tier } from "@/lib/keys/permissions";

/** The database or an open transaction: a tier change is written with whatever else it belongs with. */
export type TierWriter = Pick<Db, "user" | "auditEvent">;

export interface TierChangeRecord {
  /** Who asked: the account's owner, an operator, or null for the billing system itself (Stripe's webhooks, reconciliation). */
  actorId: string | null;
  user: { id: string; email: string };
  from: Tier;
  to: Tier;
  /** Why the system changed it, for the audit trail (e.g. "Stripe customer.subscription.deleted"). */
  reason?: string;
}

/**
 * Moves the account to its new tier and appends the change to the audit trail, every way a tier
 * changes (plan page, operator console, Stripe). Publishing the change to cached keys is the
 * caller's, after its transaction commits.
 */
export async function writeTierChange(db: TierWriter, change: TierChangeRecord, origin: RequestOrigin): Promise<void> {
  await db.user.update({ where: { id: change.user.id }, data: { tier: tierToDb(change.to) } });
  const summary = `${change.from} -> ${change.to}`;
  // The owner's own trail needs no name; an operator's must say whose plan moved; the system says
  // why. The change stays last, where the audit trail's page reads it (lib/security/audit-trail.ts).
  const target =
    change.actorId === change.user.id ? summary : change.actorId === null ? `${change.reason ?? "Billing"}: ${summary}` : `${change.user.email}: ${summary}`;
  await recordAudit(db, { actorId: change.actorId, subjectId: change.user.id, action: "tier.changed", target }, origin);
}
