import Link from "next/link";
import { listAlertRules } from "@/lib/alerts/alert-rules";
import { DataTable } from "@/app/components/data-table";
import { FeatureUpgradeNotice } from "@/app/components/upgrade-notice";
import { requireUser } from "@/lib/auth/session";
import { appServices } from "@/lib/app-services";
import { VENUE_IDS } from "@/lib/market/model/types";
import { planOf } from "@/lib/plans";
import { listEndpoints } from "@/lib/webhooks/webhook-endpoints";
import { actorFromSession } from "@/lib/actor";
import { AlertCreator } from "./alert-creator";
import { AlertActions } from "./alert-actions";
import { describeConditions } from "./describe-conditions";

export const dynamic = "force-dynamic";

export default async function AlertsPage() {
  const user = await requireUser("/account/alerts");
  const cap = planOf(user.tier).alertRules;
  const included = planOf(user.tier).features.alertRules;
  const owner = actorFromSession(user);
  const services = appServices();
  const [rules, endpoints] = included ? await Promise.all([listAlertRules(services, owner), listEndpoints(services, owner)]) : [[], []];
  const urls = new Map(endpoints.map((e) => [e.id, e.url]));
  return (
    <section aria-labelledby="alerts-heading">
      <h2 id="alerts-heading">Alerts</h2>
      <p className="muted">
        A rule watches the live market: each published round&apos;s opportunities (one alert when one crosses into your
        condition, none while it stays there), funding interval changes, venues going stale. Each alert raises an <code>alert.triggered</code> event on your streams and <code>GET /v1/events</code>, and
        is POSTed to the <Link href="/account/webhooks">webhook endpoints</Link> you choose. After an alert, the same rule
        stays quiet about the same opportunity, market or venue for its cool-down. Test-mode rules are managed with a test
        key through <code>/v1/alert-rules</code>.
      </p>
      {!included ? (
        <FeatureUpgradeNotice title="Alerts" feature="alertRules" count={(plan) => plan.alertRules} unit="rules" />
      ) : (
        <>
          <AlertCreator
            exchanges={[...VENUE_IDS]}
            endpoints={endpoints.map((e) => ({ id: e.id, url: e.url }))}
            full={rules.length >= cap}
            cap={cap}
          />
          {rules.length === 0 ? (
            <p>No alert rules yet.</p>
          ) : (
            <DataTable aria-label="Alert rules" columns={["Rule", "Conditions", "Delivered to", "Status", "Actions"]}>
              {rules.map((rule) => (
                <tr key={rule.id} data-testid="alert-rule">
                  <td>{rule.name}</td>
                  <td>{describeConditions(rule)}</td>
                  <td>
                    {rule.endpoint_ids.length === 0
                      ? "Streams and events only"
                      : rule.endpoint_ids.map((id) => (
                          <div key={id}>
                            <Link href={`/account/webhooks/${id}`}>{urls.get(id) ?? id}</Link>
                          </div>
                        ))}
                  </td>
                  <td>{rule.enabled ? "Enabled" : "Disabled"}</td>
                  <td>
                    <AlertActions rule={{ id: rule.id, name: rule.name, enabled: rule.enabled }} />
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
