import { recordAudit } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { completeJob, rescheduleJob, type ClaimedJob } from "@/lib/jobs/job-queue";
import { recordWebhookAttempt } from "@/lib/observability/metrics";
import type { DeliveryJob } from "./delivery-queue";
import { nextAttemptAt } from "./retry-schedule";
import { sendWebhook, type AttemptResult, type SendOptions } from "./send-webhook";
import { eventsAppended } from "@/lib/events/append-events";
import { mailEndpointDisabled, recordEndpointDisabled } from "./endpoint-disabled";
import { auditTarget, signingSecrets } from "./webhook-endpoints";
import { webhookHeaders } from "./webhook-signature";

/** An endpoint whose deliveries have failed without a success for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 3 * 86_400_000;

export interface DeliverOptions extends SendOptions {
  now?: () => Date;
  random?: () => number;
}

/**
 * Runs one delivery job: one signed attempt, recorded (status or error, latency, the first 1 KB of
 * the answer) in the same transaction that either finishes the job or moves it to the next time of
 * the retry schedule (lib/webhooks/retry-schedule.ts). A manual redelivery is one attempt, never
 * retried; on a delivery still being retried, its success ends the retries and its failure leaves them be. A test
 * event is one attempt too, its result the delivery's status. The endpoint's `failingSince` starts at its first failure after a success and is cleared
 * by any success; a failure three days after it disables the endpoint, with an audit entry, a
 * `webhook_endpoint.disabled` event for the account and an e-mail to it.
 * Should the process die after sending and before recording, the job's lease runs out and the
 * attempt is made again, with the same webhook-id: delivery is at least once, and receivers
 * drop repeats by that id (Standard Webhooks).
 */
export async function deliverWebhook(db: Db, job: ClaimedJob, options: DeliverOptions): Promise<void> {
  const now = options.now ?? (() => new Date());
  const { delivery_id: deliveryId, manual = false, once = false } = job.payload as DeliveryJob;
  const delivery = await db.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { endpoint: true } });
  if (!delivery || (!manual && delivery.status !== "pending")) return completeJob(db, job); // deleted, or finished meanwhile
  const { endpoint } = delivery;
  if (!endpoint.enabled && !manual && !once) {
    await db.$transaction(async (tx) => {
      await tx.webhookDelivery.update({ where: { id: delivery.id }, data: { status: "failed", nextAttemptAt: null, completedAt: now() } });
      await completeJob(tx, job);
    });
    return;
  }

  const startedAt = now();
  const headers = webhookHeaders(signingSecrets(endpoint, startedAt), delivery.id, Math.floor(startedAt.getTime() / 1_000), delivery.payload);
  const result: AttemptResult = await sendWebhook(endpoint.url, headers, delivery.payload, options);
  recordWebhookAttempt(result.ok);
  const endedAt = now();
  const attemptCount = delivery.attemptCount + 1;

  let notify: { to: string; failingSince: Date } | null = null;
  await db.$transaction(async (tx) => {
    // The endpoint (and with it the delivery) may have been deleted while the request was out:
    // then there is nothing left to record, and the job is done. Locked, so no delete can slip in
    // between this check and the writes.
    const [still] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "WebhookDelivery" WHERE id = ${delivery.id} FOR UPDATE`;
    if (!still) return completeJob(tx, job);
    await tx.webhookAttempt.create({
      data: {
        deliveryId: delivery.id,
        at: startedAt,
        statusCode: result.statusCode,
        error: result.error,
        latencyMs: result.latencyMs,
        responseBody: result.responseBody,
        manual,
      },
    });
    if (result.ok) {
      await tx.webhookDelivery.update({ where: { id: delivery.id }, data: { status: "succeeded", attemptCount, nextAttemptAt: null, completedAt: endedAt } });
      // Only an endpoint that was failing when this attempt began is written: a success of a healthy
      // endpoint (nearly every one) costs no statement. A failure a concurrent attempt records
      // meanwhile stays; it is no older than this success, and the next success clears it.
      if (endpoint.failingSince !== null) await tx.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince: null } });
      return completeJob(tx, job);
    }
    const retryAt = manual || once ? null : nextAttemptAt(attemptCount, delivery.createdAt, endedAt, options.random?.());
    // A failed manual attempt on a delivery still being retried leaves its schedule as it was.
    const stillScheduled = manual && delivery.status === "pending";
    await tx.webhookDelivery.update({
      where: { id: delivery.id },
      data:
        retryAt || stillScheduled
          ? { attemptCount, ...(retryAt && { nextAttemptAt: retryAt }) }
          : { status: "failed", attemptCount, nextAttemptAt: null, completedAt: endedAt },
    });
    await tx.webhookEndpoint.updateMany({ where: { id: endpoint.id, failingSince: null }, data: { failingSince: startedAt } });
    const failingSince = endpoint.failingSince ?? startedAt;
    if (endpoint.enabled && endedAt.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS) {
      const { count } = await tx.webhookEndpoint.updateMany({ where: { id: endpoint.id, enabled: true }, data: { enabled: false, disabledReason: "failing" } });
      if (count > 0) {
        await recordAudit(
          tx,
          { actorId: null, subjectId: endpoint.userId, action: "webhook.disabled", target: `${auditTarget(endpoint)}: failing since ${failingSince.toISOString()}` },
          { ip: null, userAgent: null },
        );
      }
      if (retryAt) await rescheduleJob(tx, job, retryAt);
      else await completeJob(tx, job);
      // The account is told: an event (written last, under the log's lock) and, once committed, an e-mail.
      if (count > 0) {
        const to = await recordEndpointDisabled(tx, endpoint, failingSince, endedAt);
        if (to) notify = { to, failingSince };
      }
      return;
    }
    if (retryAt) return rescheduleJob(tx, job, retryAt);
    return completeJob(tx, job);
  });
  if (notify) {
    const { to, failingSince } = notify;
    eventsAppended().notify();
    mailEndpointDisabled(to, endpoint, failingSince);
  }
}
