import { enqueueJobs, queueDepth, type JobDb, type QueueDepth } from "@/lib/jobs/job-queue";
import { processSingleton } from "@/lib/singleton";

/** The job queue deliveries wait in (lib/jobs/). */
export const DELIVERY_QUEUE = "webhook.deliver";

/**
 * A delivery job's payload: which delivery, whether it is a redelivery asked for by hand (one
 * attempt, no retries, recorded as manual), and whether it is a test event (one attempt, no
 * retries, sent to a disabled endpoint too).
 */
export interface DeliveryJob {
  delivery_id: string;
  manual?: boolean;
  once?: boolean;
}

/** Queues delivery jobs (inside the caller's transaction when given one); `wakeDeliveries` afterwards starts them at once in this process. */
export async function enqueueDeliveries(db: JobDb, jobs: readonly DeliveryJob[]): Promise<void> {
  await enqueueJobs(db, DELIVERY_QUEUE, jobs.map((job) => ({ ...job })));
}

/** The deliveries waiting in the queue, shared by every process (GET /metrics). */
export function deliveryQueueDepth(db: JobDb, now?: Date): Promise<QueueDepth> {
  return queueDepth(db, DELIVERY_QUEUE, now);
}

interface Waker {
  wake: (() => void) | null;
}

const waker = (): Waker => processSingleton("webhook-waker", () => ({ wake: null }));

/** Set by the process running deliveries (lib/webhooks/start-webhooks.ts), so work queued here needs no poll. */
export function setDeliveryWaker(wake: (() => void) | null): void {
  waker().wake = wake;
}

/** Tells this process's delivery runner, if it has one, that jobs are waiting; other processes find them by polling. */
export function wakeDeliveries(): void {
  waker().wake?.();
}
