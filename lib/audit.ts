import type { Db } from "@/lib/db";

export type AuditAction =
  | "account.created"
  | "sign_in"
  | "key.created"
  | "key.revoked"
  | "key.rolled"
  | "key.allowlist_changed"
  | "tier.changed"
  | "billing.subscription_cancelled"
  | "billing.comped"
  | "email.verified"
  | "password.reset"
  | "operator.granted"
  | "operator.revoked"
  | "signin.failed"
  | "sign_out"
  | "session.revoked"
  | "sessions.revoked"
  | "password.changed"
  | "fees.changed"
  | "webhook.created"
  | "webhook.updated"
  | "webhook.deleted"
  | "webhook.secret_rolled"
  | "webhook.disabled"
  | "alert_rule.created"
  | "alert_rule.updated"
  | "alert_rule.deleted";

export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
}

/** Appends one line to the audit trail that /account/security shows its owner. */
export async function recordAudit(
  db: Pick<Db, "auditEvent">,
  event: { actorId: string | null; subjectId: string | null; action: AuditAction; target?: string | null },
  origin: RequestOrigin,
): Promise<void> {
  await db.auditEvent.create({
    data: {
      actorId: event.actorId,
      subjectId: event.subjectId,
      action: event.action,
      target: event.target ?? null,
      ip: origin.ip,
      userAgent: origin.userAgent?.slice(0, 512) ?? null,
    },
  });
}

/** Who sent a request: server.ts puts the socket's address in X-Real-IP, overwriting any sent. */
export function requestOrigin(headers: Headers | Record<string, string | string[] | undefined>): RequestOrigin {
  const get = (name: string): string | null => {
    if (headers instanceof Headers) return headers.get(name);
    const value = headers[name];
    return (Array.isArray(value) ? value[0] : value) ?? null;
  };
  return { ip: get("x-real-ip"), userAgent: get("user-agent") };
}
