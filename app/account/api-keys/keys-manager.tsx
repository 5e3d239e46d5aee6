"use client";

import { useEffect, useState } from "react";
import { ACTIONS_COLUMN, DataTable } from "@/app/components/data-table";
import { UpgradeNotice } from "@/app/components/upgrade-notice";
import type { KeyView } from "@/lib/keys/account-keys";
import { EXPIRY_WARNING_DAYS, keysExpiringSoon, timeUntil } from "@/lib/keys/expiry-warning";
import type { Permission, Tier } from "@/lib/keys/permissions";
import { PERMISSION_LABELS, planNames, planOf, plansWith } from "@/lib/plans";
import { formatUtc } from "@/lib/format-time";
import styles from "./api-keys.module.css";
import { CreateKeyForm } from "./create-key-form";
import { EditAllowlistButton } from "./edit-allowlist-button";
import { NewKeyPanel, type NewKey } from "./new-key-panel";
import { RevokeKeyButton } from "./revoke-key-button";
import { RollKeyButton, type RolledKey } from "./roll-key-button";

interface Props {
  initialKeys: KeyView[];
  tier: Tier;
  allowedPermissions: Permission[];
  maxActiveKeys: number;
  /** The server's clock when it rendered the page (ms): the first render in the browser must say what the server said. */
  renderedAt: number;
}

const ROLL_UNAVAILABLE_ID = "roll-unavailable";

/** The clock the expiry warning reads: the server's at first, then the browser's each minute. */
function useMinuteClock(initial: number): number {
  const [now, setNow] = useState(initial);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function KeysManager({ initialKeys, tier, allowedPermissions, maxActiveKeys, renderedAt }: Props) {
  const [keys, setKeys] = useState(initialKeys);
  const [newKey, setNewKey] = useState<NewKey | null>(null);
  const [creating, setCreating] = useState(false);
  const now = useMinuteClock(renderedAt);
  const activeCount = keys.filter((k) => k.status === "active").length;
  const apiAccess = planOf(tier).features.api;
  const apiPlans = plansWith("api");
  const expiring = keysExpiringSoon(keys, now);
  const expiringIds = new Set(expiring.map((k) => k.id));

  const upsert = (...views: KeyView[]) =>
    setKeys((current) => {
      const byId = new Map(current.map((k) => [k.id, k]));
      for (const view of views) byId.set(view.id, view);
      return [...byId.values()].sort((a, b) => b.created_at.localeCompare(a.created_at));
    });
  const showRolled = (rolled: RolledKey, name: string) => {
    upsert(rolled.view, rolled.previous);
    setNewKey({ key: rolled.key, view: rolled.view, heading: `Replacement for “${name}”` });
  };

  return (
    <>
      {!apiAccess ? (
        <UpgradeNotice>
          <p>
            <strong>The {planOf(tier).name} plan has no API access</strong>, so it cannot create API keys. {planNames(apiPlans)} plans
            include the API ({apiPlans.map((plan) => plan.requestsPerMinute).join(" and ")} requests per minute per key).
          </p>
          {activeCount > 0 && (
            <p id={ROLL_UNAVAILABLE_ID}>
              Your existing keys can still be revoked; rolling a key also needs {planNames(apiPlans, "or")}.
            </p>
          )}
        </UpgradeNotice>
      ) : (
        <p>
          <button type="button" onClick={() => setCreating(true)} disabled={creating || activeCount >= maxActiveKeys}>
            Create New Key
          </button>{" "}
          <span className="muted">
            {activeCount} of {maxActiveKeys} active keys
            {activeCount >= maxActiveKeys && " — revoke a key to create another"}
          </span>
        </p>
      )}

      {creating && (
        <CreateKeyForm
          allowedPermissions={allowedPermissions}
          onCancel={() => setCreating(false)}
          onCreated={(created) => {
            setCreating(false);
            upsert(created.view);
            setNewKey({ ...created, heading: "Your new API key" });
          }}
        />
      )}

      {newKey && <NewKeyPanel newKey={newKey} onDone={() => setNewKey(null)} />}

      {expiring.length > 0 && (
        <div className={`notice ${styles.expiring}`} role="note" aria-label="Keys expiring soon">
          <p>
            <strong>
              {expiring.length === 1 ? "1 key expires" : `${expiring.length} keys expire`} within {EXPIRY_WARNING_DAYS} days.
            </strong>{" "}
            From then on every request with it fails with 401 UNAUTHORIZED. Roll it (the replacement gets the same lifetime)
            or create a new key, and give your clients the new key before then.
          </p>
          <ul>
            {expiring.map((key) => (
              <li key={key.id}>
                “{key.name}” (<code className="nowrap">{key.prefix}</code>) expires {timeUntil(key.expires_at!, now)}, at {formatUtc(key.expires_at)}
              </li>
            ))}
          </ul>
        </div>
      )}

      {keys.length === 0 ? (
        <p className="muted">No API keys yet.</p>
      ) : (
        <DataTable
      aria-label="API keys"
      columns={["Name", "Key", "Permissions", "Created", "Last used", "Expires", "IP allowlist", "Status", ACTIONS_COLUMN]}
    >
          {keys.map((key) => (
            <tr key={key.id} data-key-id={key.id}>
              <td>{key.name}</td>
              <td>
                <code className="nowrap">{key.prefix}</code>
                <div className="muted">{key.mode === "live" ? "Live" : "Test"} mode</div>
              </td>
              <td>{key.permissions.map((p) => PERMISSION_LABELS[p]).join(", ")}</td>
              <td>{formatUtc(key.created_at)}</td>
              <td>{formatUtc(key.last_used_at)}</td>
              <td>
                {formatUtc(key.expires_at)}
                {expiringIds.has(key.id) && <div className={styles.expiresSoon}>expires {timeUntil(key.expires_at!, now)}</div>}
              </td>
              <td>
                {key.allowed_ips.length ? (
                  <ul className={styles.entries} aria-label={`IP allowlist of ${key.name}`}>
                    {key.allowed_ips.map((entry) => (
                      <li key={entry}>
                        <code>{entry}</code>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <div className="muted">Any address</div>
                )}
                {key.status === "active" && <EditAllowlistButton keyView={key} onSaved={(view) => upsert(view)} />}
              </td>
              <td>
                <span className={`status-${key.status}`}>{key.status[0]!.toUpperCase() + key.status.slice(1)}</span>
                {/* Only a roll sets revoked_at on a key that is still active: the end of its grace period. */}
                {key.status === "active" && key.revoked_at && (
                  <div className="muted">will be revoked at {formatUtc(key.revoked_at)} (rolled)</div>
                )}
              </td>
              <td>
                <div className={styles.keyActions}>
                  {key.status === "active" && (
                    <>
                      {/* A rolled key already has its replacement; rolling it again would only shorten its grace. */}
                      {!key.revoked_at && (
                        <RollKeyButton
                          keyView={key}
                          onRolled={(rolled) => showRolled(rolled, key.name)}
                          unavailableReasonId={apiAccess ? undefined : ROLL_UNAVAILABLE_ID}
                        />
                      )}
                      <RevokeKeyButton keyView={key} onRevoked={(view) => upsert(view)} />
                    </>
                  )}
  </div>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}
