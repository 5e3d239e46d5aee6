import { requireUser } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { listKeys, MAX_ACTIVE_KEYS } from "@/lib/keys/account-keys";
import { TIER_PERMISSIONS } from "@/lib/keys/permissions";
import { KeysManager } from "./keys-manager";

export const dynamic = "force-dynamic";

export default async function ApiKeysPage() {
  const user = await requireUser("/account/api-keys");
  const keys = await listKeys(await getDb(), user.id);
  return (
    <section aria-labelledby="api-keys-heading">
      <h2 id="api-keys-heading">API Keys</h2>
      <p className="muted">
        Send a key as <code>Authorization: Bearer &lt;API_KEY&gt;</code>. Keep keys in environment variables, out of
        source control; rotate them with Roll, and revoke any key that may have leaked.
      </p>
      <KeysManager
        initialKeys={keys}
        tier={user.tier}
        allowedPermissions={[...TIER_PERMISSIONS[user.tier]]}
        maxActiveKeys={MAX_ACTIVE_KEYS}
      />
    </section>
  );
}
