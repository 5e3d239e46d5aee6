import { publicOrigin } from "@/lib/config/public-url";
import type { WebhookEndpoint } from "@/lib/db/generated/client";
import type { Prisma } from "@/lib/db/generated/client";
import type { z } from "zod";
import { EVENT_LOG_CHANNEL, EVENT_LOG_LOCK_ID, eventLogWriter } from "@/lib/events/append-events";
import type { webhookEndpointDisabledSchema } from "@/lib/events/event-data";
import { sendMailInBackground } from "@/lib/mail/mailer";
import { webhookDisabledMail } from "@/lib/mail/messages";

/**
 * Writes `webhook_endpoint.disabled` for the endpoint's account, in the transaction that disabled
 * it (so the notice exists exactly when the endpoint was disabled), and answers the address to
 * tell. Takes the event log's lock as every writer does, so call it last in the transaction.
 */
export async function recordEndpointDisabled(tx: Prisma.TransactionClient, endpoint: WebhookEndpoint, failingSince: Date, at: Date): Promise<string | null> {
  const data: z.infer<typeof webhookEndpointDisabledSchema> = {
    endpoint: { id: endpoint.id, url: endpoint.url, description: endpoint.description },
    reason: "failing",
    failing_since: failingSince.toISOString(),
    disabled_at: at.toISOString(),
  };
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${EVENT_LOG_LOCK_ID}::bigint)`;
  await tx.$executeRaw`
    INSERT INTO "MarketEvent" (mode, type, data, "userId")
    VALUES (${endpoint.keyMode}::"KeyMode", 'webhook_endpoint.disabled', ${JSON.stringify(data)}::jsonb, ${endpoint.userId})`;
  await tx.$executeRaw`SELECT pg_notify(${EVENT_LOG_CHANNEL}, ${eventLogWriter()})`;
  const user = await tx.user.findUnique({ where: { id: endpoint.userId }, select: { email: true } });
  return user?.email ?? null;
}

/** The e-mail that the endpoint was disabled, sent after the transaction committed (its failure is logged, never thrown). */
export function mailEndpointDisabled(to: string, endpoint: Pick<WebhookEndpoint, "id" | "url">, failingSince: Date): void {
  sendMailInBackground(webhookDisabledMail(to, endpoint, failingSince, `${publicOrigin()}/account/webhooks`));
}
