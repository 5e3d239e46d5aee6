import type { Db } from "@/lib/db";
import { eventsAppended } from "@/lib/events/append-events";
import { JobRunner } from "@/lib/jobs/job-runner";
import { logger } from "@/lib/observability/logger";
import { startPeriodicTask } from "@/lib/process/periodic-task";
import { deleteOldDeliveries } from "@/lib/webhooks/delivery-retention";
import { DELIVERY_QUEUE, setDeliveryWaker } from "@/lib/webhooks/delivery-queue";
import { deliverWebhook, type DeliverOptions } from "@/lib/webhooks/deliver-webhook";
import { dispatchEvents } from "@/lib/webhooks/dispatch-events";
import { deleteExpiredCooldowns, evaluateAlerts } from "./evaluate-alerts";
import { evaluateRoundAlerts } from "./evaluate-round-alerts";
import { deliveryLeaseMs, type WebhookConfig } from "@/lib/webhooks/webhook-config";

export interface WebhookService {
  /** Looks for new events and due deliveries now. */
  wake(): void;
  /** Resolves once nothing is being dispatched or delivered (tests, the benchmark). */
  idle(): Promise<void>;
  /** Stops both loops and waits for the attempts under way. */
  stop(): Promise<void>;
}

export interface StartWebhooksOptions {
  db: Db;
  config: WebhookConfig;
  /** Replaces the clock, the randomness and name resolution (tests). */
  deliver?: Partial<DeliverOptions>;
  log?: (line: string, error?: unknown) => void;
}

/**
 * What a server (embedded mode) or `npm run worker` runs for webhooks: alert evaluation (each
 * published round's crossings, then the event rules) and the dispatcher, which turn new MarketEvents into alerts and queued deliveries, and the job runner
 * that sends them. Both poll every WEBHOOK_POLL_MS; work queued in this process (events it
 * appended, a test event, a redelivery, a dispatch) wakes them at once. Any number of processes
 * may run them on PostgreSQL. It lives in lib/alerts because it runs alert evaluation ahead of
 * each dispatch: alerts sit above webhooks (they queue deliveries), never the other way round.
 */
export function startWebhooks(options: StartWebhooksOptions): WebhookService {
  const { db, config } = options;
  const log = options.log ?? ((line: string, error?: unknown) => (error === undefined ? logger("webhooks").warn(line) : logger("webhooks").error({ err: error }, line)));
  const deliverOptions: DeliverOptions = { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_URLS, timeoutMs: config.WEBHOOK_TIMEOUT_MS, ...options.deliver };
  const runner = new JobRunner({
    db,
    pollMs: config.WEBHOOK_POLL_MS,
    log,
    ...(options.deliver?.now && { now: options.deliver.now }),
    workers: [
      {
        queue: DELIVERY_QUEUE,
        concurrency: config.WEBHOOK_CONCURRENCY,
        leaseMs: deliveryLeaseMs(config),
        handle: (job) => deliverWebhook(db, job, deliverOptions),
      },
    ],
  });

  let stopped = false;
  let dispatching: Promise<void> | undefined;
  let again = false;
  const dispatch = (): void => {
    if (stopped) return;
    if (dispatching) {
      again = true;
      return;
    }
    dispatching = (async () => {
      for (;;) {
        // Alerts first: a round's alerts are queued with the round's own deliveries.
        const crossings = await evaluateRoundAlerts(db);
        const alerts = await evaluateAlerts(db);
        const { events, deliveries } = await dispatchEvents(db);
        if (deliveries > 0 || alerts.deliveries > 0 || crossings.deliveries > 0) runner.wake();
        if ((events < 500 && alerts.events < 500) || stopped) break;
      }
    })()
      .catch((error: unknown) => log("dispatching events to webhooks failed", error))
      .finally(() => {
        dispatching = undefined;
        if (again) {
          again = false;
          dispatch();
        }
      });
  };
  const timer = setInterval(dispatch, config.WEBHOOK_POLL_MS);
  timer.unref();
  // Events this process commits (its rounds, its sandbox ticks, on the embedded database all of
  // them) are dispatched at once rather than at the next poll; other processes' by polling.
  const stopListening = eventsAppended().listen(dispatch);
  runner.start();
  dispatch();
  const wake = () => {
    dispatch();
    runner.wake();
  };
  setDeliveryWaker(wake);
  const retention = startPeriodicTask("deleting old webhook deliveries", 3_600_000, () => deleteOldDeliveries(db));
  const cooldowns = startPeriodicTask("deleting expired alert cool-downs", 3_600_000, () => deleteExpiredCooldowns(db));

  return {
    wake,
    async idle() {
      while (dispatching) await dispatching;
      await runner.idle();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      stopListening();
      retention.stop();
      cooldowns.stop();
      setDeliveryWaker(null);
      await dispatching;
      await runner.stop();
    },
  };
}
