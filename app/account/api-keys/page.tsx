import { actorFromSession } from "@/lib/actor";
import { appServices } from "@/lib/app-services";
import { requireUser } from "@/lib/auth/session";
import { listKeys } from "@/lib/keys/account-keys";
import { planOf } from "@/lib/plans";
import { FreePlanGuide } from "./free-plan-guide";
import { KeysManager } from "./keys-manager";

export const dynamic = "force-dynamic";

export default async function ApiKeysPage() {
  const user = await requireUser("/account/api-keys");
  const keys = await listKeys(appServices(), actorFromSession(user));
  // The expiry warning's clock for the first render, so the browser's hydration says the same.
  const now = new Date();
  const plan = planOf(user.tier);
  return (
    <>
      {!plan.features.api && <FreePlanGuide plan={plan} />}
      <section aria-labelledby="api-keys-heading">
        <h2 id="api-keys-heading">API Keys</h2>
        <p className="muted">
          Send a key as <code>Authorization: Bearer &lt;API_KEY&gt;</code>. Keep keys in environment variables, out of
          source control; rotate them with Roll, and revoke any key that may have leaked. A key used from known machines
          only is safer with an IP allowlist: a leaked copy then works nowhere else.
        </p>
        <KeysManager
          initialKeys={keys}
          tier={user.tier}
          allowedPermissions={[...plan.permissions]}
          maxActiveKeys={plan.maxActiveKeys}
          renderedAt={now.getTime()}
        />
      </section>
    </>
  );
}
