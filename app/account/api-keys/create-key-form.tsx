"use client";

import { useState, type FormEvent } from "react";
import type { KeyView } from "@/lib/keys/account-keys";
import { splitAllowlistText } from "@/lib/keys/ip-allowlist";
import type { Permission } from "@/lib/keys/permissions";
import { PERMISSION_LABELS } from "@/lib/plans";
import { postJson, problemFrom, type FormProblem } from "../../components/field-errors";
import { FieldErrorMessage, invalidFieldProps } from "../../components/invalid-field";
import { FormFooter } from "@/app/components/form-parts";
import { AllowlistField } from "./allowlist-field";

interface Props {
  allowedPermissions: Permission[];
  onCreated: (created: { key: string; view: KeyView }) => void;
  onCancel: () => void;
}

export function CreateKeyForm({ allowedPermissions, onCreated, onCancel }: Props) {
  const [expiryKind, setExpiryKind] = useState("never");
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const expiry =
      expiryKind === "never"
        ? { kind: "never" }
        : expiryKind === "date"
          ? { kind: "date", date: String(form.get("expiryDate") ?? "") }
          : { kind: "days", days: Number(expiryKind) };
    setBusy(true);
    setProblem(null);
    const response = await postJson("/api/account/keys", {
      name: String(form.get("name") ?? ""),
      mode: String(form.get("mode") ?? "test"),
      permissions: form.getAll("permissions").map(String),
      expiry,
      allowed_ips: splitAllowlistText(String(form.get("allowedIps") ?? "")),
    });
    setBusy(false);
    if (!response.ok) return setProblem(await problemFrom(response));
    onCreated(((await response.json()) as { data: { key: string; view: KeyView } }).data);
  }

  return (
    <form className="panel" onSubmit={submit} aria-label="Create API key" noValidate>
      <h3>Create New Key</h3>
      <label htmlFor="key-name">Name</label>
      <input
        id="key-name"
        name="name"
        maxLength={64}
        required
        placeholder="e.g. trading-bot-prod"
        {...invalidFieldProps(problem, "name")}
      />
      <FieldErrorMessage problem={problem} field="name" />

      <fieldset {...invalidFieldProps(problem, "mode")}>
        <legend>Mode</legend>
        <label>
          <input type="radio" name="mode" value="test" defaultChecked /> Test — sandbox data, for writing and testing clients
        </label>
        <label>
          <input type="radio" name="mode" value="live" /> Live — production data
        </label>
      </fieldset>
      <FieldErrorMessage problem={problem} field="mode" />

      <fieldset {...invalidFieldProps(problem, "permissions")}>
        <legend>Permissions</legend>
        {allowedPermissions.map((permission) => (
          <label key={permission}>
            <input type="checkbox" name="permissions" value={permission} defaultChecked /> {PERMISSION_LABELS[permission]}
          </label>
        ))}
      </fieldset>
      <FieldErrorMessage problem={problem} field="permissions" />

      <label htmlFor="key-expiry">Expiry</label>
      <select
        id="key-expiry"
        value={expiryKind}
        onChange={(e) => setExpiryKind(e.target.value)}
        {...invalidFieldProps(problem, "expiry")}
      >
        <option value="never">Never</option>
        <option value="30">In 30 days</option>
        <option value="90">In 90 days</option>
        <option value="date">On a date…</option>
      </select>
      {expiryKind === "date" && (
        <>
          <label htmlFor="key-expiry-date">Expiry date</label>
          <input id="key-expiry-date" name="expiryDate" type="date" required {...invalidFieldProps(problem, "expiry.date")} />
        </>
      )}
      <FieldErrorMessage problem={problem} field="expiry.date" />
      <FieldErrorMessage problem={problem} field="expiry" />

      <AllowlistField id="key-allowed-ips" name="allowedIps" problem={problem} />

      <FormFooter problem={problem} busy={busy} label="Create key" busyLabel="Creating…">
        {" "}
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </FormFooter>
    </form>
  );
}
