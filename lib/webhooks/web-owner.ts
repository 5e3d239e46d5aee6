import type { Tier } from "@/lib/keys/permissions";
import type { WebhookOwner } from "./webhook-endpoints";

/**
 * The signed-in user as the owner of webhook endpoints in the web app: always the live ones (test
 * endpoints belong to test keys, through /v1). Pro accounts manage theirs here though the API's
 * routes need Desk's `write`; the plan's cap applies alike (Pro 2, Desk 10).
 */
export function webWebhookOwner(user: { id: string; tier: Tier }): WebhookOwner {
  return { userId: user.id, mode: "live", tier: user.tier };
}
