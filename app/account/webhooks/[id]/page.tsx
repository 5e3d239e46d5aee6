import Link from "next/link";
import { notFound } from "next/navigation";
import { DataTable } from "@/app/components/data-table";
import { requireUser } from "@/lib/auth/session";
import { appServices } from "@/lib/app-services";
import { AppError } from "@/lib/errors";
import { formatUtc } from "@/lib/format-time";
import { isPlausibleId } from "@/lib/validation";
import { listDeliveries } from "@/lib/webhooks/webhook-deliveries";
import { planOf } from "@/lib/plans";
import { getEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { actorFromSession } from "@/lib/actor";
import { EndpointActions } from "../endpoint-actions";
import { endpointStatus } from "../endpoint-status";
import { RedeliverButton } from "../redeliver-button";

export const dynamic = "force-dynamic";

const PAGE = 50;

export default async function WebhookEndpointPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await requireUser(`/account/webhooks/${id}`);
  if (!isPlausibleId(id) || !planOf(user.tier).features.webhooks) notFound();
  const services = appServices();
  const owner = actorFromSession(user);
  const found = await Promise.all([getEndpoint(services, owner, id), listDeliveries(services, owner, id, { limit: PAGE, offset: 0 })]).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "NOT_FOUND") return null;
    throw error;
  });
  if (!found) notFound();
  const [endpoint, deliveries] = found;
  return (
    <section aria-labelledby="endpoint-heading">
      <p>
        <Link href="/account/webhooks">← All endpoints</Link>
      </p>
      <h2 id="endpoint-heading">{endpoint.url}</h2>
      {endpoint.description && <p>{endpoint.description}</p>}
      <p className="muted">
        {endpointStatus(endpoint)} · events: {endpoint.event_types.join(", ")} · added {formatUtc(endpoint.created_at)}
        {endpoint.previous_secret_expires_at && <> · the previous secret signs too until {formatUtc(endpoint.previous_secret_expires_at)}</>}
      </p>
      <EndpointActions endpoint={endpoint} afterDelete="/account/webhooks" />
      <h3>Delivery log</h3>
      <p className="muted">
        {deliveries.total === 0 ? "No deliveries yet." : `${deliveries.total} deliveries, newest first${deliveries.has_more ? ` (the latest ${PAGE} shown)` : ""}.`}
      </p>
      {deliveries.items.length > 0 && (
        <DataTable aria-label="Deliveries" columns={["Event", "Status", "Attempts", "Created", null]}>
          {deliveries.items.map((delivery) => (
            <tr key={delivery.id} data-testid="webhook-delivery">
              <td>
                {delivery.event_type}
                <div className="muted">
                  <code>{delivery.event_id}</code>
                </div>
              </td>
              <td>
                {delivery.status}
                {delivery.next_attempt_at && <div className="muted">next attempt {formatUtc(delivery.next_attempt_at)}</div>}
              </td>
              <td>
                <details>
                  <summary>{delivery.attempt_count} attempts</summary>
                  <ul>
                    {delivery.attempts.map((attempt, index) => (
                      <li key={index} data-testid="webhook-attempt">
                        {formatUtc(attempt.at)}: {attempt.status_code === null ? "no answer" : `HTTP ${attempt.status_code}`}
                        {attempt.error && attempt.status_code === null && <> ({attempt.error})</>} in {attempt.latency_ms} ms
                        {attempt.manual && " (redelivered by hand)"}
                        {attempt.response_body && (
                          <pre className="muted">{attempt.response_body}</pre>
                        )}
                      </li>
                    ))}
                  </ul>
                </details>
              </td>
              <td>{formatUtc(delivery.created_at)}</td>
              <td>
                <RedeliverButton endpointId={endpoint.id} deliveryId={delivery.id} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
