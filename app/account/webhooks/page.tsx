import Link from "next/link";
import { DataTable } from "@/app/components/data-table";
import { FeatureUpgradeNotice } from "@/app/components/upgrade-notice";
import { requireUser } from "@/lib/auth/session";
import { appServices } from "@/lib/app-services";
import { MARKET_EVENT_TYPES } from "@/lib/events/event-types";
import { planOf } from "@/lib/plans";
import { DISABLE_AFTER_FAILING_MS } from "@/lib/webhooks/deliver-webhook";
import { RETRY_WINDOW_MS } from "@/lib/webhooks/retry-schedule";
import { listEndpoints } from "@/lib/webhooks/webhook-endpoints";
import { actorFromSession } from "@/lib/actor";
import { EndpointActions } from "./endpoint-actions";
import { endpointStatus } from "./endpoint-status";
import { WebhookCreator } from "./webhook-creator";

export const dynamic = "force-dynamic";

export default async function WebhooksPage() {
  const user = await requireUser("/account/webhooks");
  const cap = planOf(user.tier).webhookEndpoints;
  const included = planOf(user.tier).features.webhooks;
  const endpoints = included ? await listEndpoints(appServices(), actorFromSession(user)) : [];
  return (
    <section aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">Webhooks</h2>
      <p className="muted">
        The service POSTs each live event you choose to your endpoints as JSON, signed as{" "}
        <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> specifies: check <code>webhook-signature</code> with
        the endpoint&apos;s secret, and drop repeats by <code>webhook-id</code>. Failed deliveries are retried for up to{" "}
        {RETRY_WINDOW_MS / 86_400_000} days; an endpoint failing for {DISABLE_AFTER_FAILING_MS / 86_400_000} days is disabled. Test-mode endpoints are managed with a test key through{" "}
        <code>/v1/webhook-endpoints</code>.
      </p>
      {!included ? (
        <FeatureUpgradeNotice title="Webhooks" feature="webhooks" count={(plan) => plan.webhookEndpoints} unit="endpoints" />
      ) : (
        <>
          <WebhookCreator eventTypes={[...MARKET_EVENT_TYPES]} full={endpoints.length >= cap} cap={cap} />
          {endpoints.length === 0 ? (
            <p>No endpoints yet.</p>
          ) : (
            <DataTable aria-label="Webhook endpoints" columns={["URL", "Events", "Status", "Actions"]}>
              {endpoints.map((endpoint) => (
                <tr key={endpoint.id} data-testid="webhook-endpoint">
                  <td>
                    <Link href={`/account/webhooks/${endpoint.id}`}>{endpoint.url}</Link>
                    {endpoint.description && <div className="muted">{endpoint.description}</div>}
                  </td>
                  <td>{endpoint.event_types.join(", ")}</td>
                  <td>{endpointStatus(endpoint)}</td>
                  <td>
                    <EndpointActions endpoint={endpoint} />
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
        </>
      )}
    </section>
  );
}
