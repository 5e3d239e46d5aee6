"use client";

import Link from "next/link";
import { useState } from "react";
import type { KeyView } from "@/lib/keys/account-keys";
import type { Permission, Tier } from "@/lib/keys/permissions";
import { PERMISSION_LABELS } from "@/lib/tiers";
import { formatUtc } from "@/lib/format-time";
import { CreateKeyForm } from "./create-key-form";
import { NewKeyPanel } from "./new-key-panel";
import { RevokeKeyButton } from "./revoke-key-button";
import { RollKeyButton, type RolledKey } from "./roll-key-button";

export interface NewKey {
  key: string;
  view: KeyView;
  heading: string;
}

interface Props {
  initialKeys: KeyView[];
  tier: Tier;
  allowedPermissions: Permission[];
  maxActiveKeys: number;
}

const ROLL_UNAVAILABLE_ID = "roll-unavailable";

export function KeysManager({ initialKeys, tier, allowedPermissions, maxActiveKeys }: Props) {
  const [keys, setKeys] = useState(initialKeys);
  const [newKey, setNewKey] = useState<NewKey | null>(null);
  const [creating, setCreating] = useState(false);
  const activeCount = keys.filter((k) => k.status === "active").length;

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
      {tier === "free" ? (
        <div className="notice" role="note">
          <p>
            <strong>The Free plan has no API access</strong>, so it cannot create API keys. Pro and Desk plans include the
            API (100 and 1000 requests per minute per key).
          </p>
          {activeCount > 0 && (
            <p id={ROLL_UNAVAILABLE_ID}>
              Your existing keys can still be revoked; rolling a key also needs Pro or Desk.
            </p>
          )}
          <p>
            <Link href="/account/plan">Upgrade your plan</Link>
          </p>
        </div>
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

      {keys.length === 0 ? (
        <p className="muted">No API keys yet.</p>
      ) : (
        <div className="table-scroll">
          <table aria-label="API keys">
            <thead>
              <tr>
                <th>Name</th>
                <th>Key</th>
                <th>Mode</th>
                <th>Permissions</th>
                <th>Created</th>
                <th>Last used</th>
                <th>Expires</th>
                <th>Status</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id} data-key-id={key.id}>
                  <td>{key.name}</td>
                  <td>
                    <code>{key.prefix}</code>
                  </td>
                  <td>{key.mode === "live" ? "Live" : "Test"}</td>
                  <td>{key.permissions.map((p) => PERMISSION_LABELS[p]).join(", ")}</td>
                  <td>{formatUtc(key.created_at)}</td>
                  <td>{formatUtc(key.last_used_at)}</td>
                  <td>{formatUtc(key.expires_at)}</td>
                  <td>
                    <span className={`status-${key.status}`}>{key.status[0]!.toUpperCase() + key.status.slice(1)}</span>
                    {/* Only a roll sets revoked_at on a key that is still active: the end of its grace period. */}
                    {key.status === "active" && key.revoked_at && (
                      <div className="muted">will be revoked at {formatUtc(key.revoked_at)} (rolled)</div>
                    )}
                  </td>
                  <td className="row-actions">
                    {key.status === "active" && (
                      <>
                        {/* A rolled key already has its replacement; rolling it again would only shorten its grace. */}
                        {!key.revoked_at && (
                          <RollKeyButton
                            keyView={key}
                            onRolled={(rolled) => showRolled(rolled, key.name)}
                            unavailableReasonId={tier === "free" ? ROLL_UNAVAILABLE_ID : undefined}
                          />
                        )}{" "}
                        <RevokeKeyButton keyView={key} onRevoked={(view) => upsert(view)} />
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
