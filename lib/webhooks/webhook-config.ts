import { z } from "zod";
import { flag, readSettings } from "@/lib/config/settings";

const schema = z.object({
  // Tests and private deployments only: endpoints may be http:// and reach private, loopback and link-local addresses.
  WEBHOOK_ALLOW_PRIVATE_URLS: flag.default(false),
  // The ports an endpoint's URL may name (comma-separated); any port under WEBHOOK_ALLOW_PRIVATE_URLS.
  WEBHOOK_ALLOWED_PORTS: z
    .string()
    .default("443,80")
    .transform((text, context) => {
      const ports = text.split(",").map((part) => part.trim()).filter(Boolean).map(Number);
      if (ports.length === 0 || ports.some((port) => !Number.isInteger(port) || port < 1 || port > 65_535)) {
        context.addIssue({ code: "custom", message: "WEBHOOK_ALLOWED_PORTS must be a comma-separated list of ports (1–65535)" });
        return z.NEVER;
      }
      return ports;
    }),
  // How long one attempt may take, resolution included; at most 10 s.
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(10_000).default(10_000),
  // How often the dispatcher and the delivery runner look for work when nothing in the process woke them.
  WEBHOOK_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  // Deliveries sent at once by one process.
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(64),
  // With PostgreSQL, deliver from the servers too, not only from `npm run worker`.
  WEBHOOKS_IN_SERVER: flag.default(false),
  WEBHOOKS_DISABLED: flag.default(false),
});

export type WebhookConfig = z.infer<typeof schema>;

/** The webhook settings (docs/operations.md); a bad value stops start-up naming the variable. */
export function readWebhookConfig(source: NodeJS.ProcessEnv = process.env): WebhookConfig {
  return readSettings(schema, source);
}

/**
 * A delivery job's lease: longer than an attempt can take (its timeout) plus the reads and the
 * one transaction around it, so a live runner never loses a job to another; and what a job whose
 * runner died waits before it is sent again.
 */
export function deliveryLeaseMs(config: Pick<WebhookConfig, "WEBHOOK_TIMEOUT_MS">): number {
  return config.WEBHOOK_TIMEOUT_MS + 15_000;
}
