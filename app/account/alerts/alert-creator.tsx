"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { CheckboxOptions, FieldAlert, FormAlert, LabelledField, SubmitRow } from "@/app/components/form-alerts";
import { useJsonPost } from "@/app/components/use-json-post";
import { KIND_CONDITIONS, type AlertKind, type ConditionField } from "@/lib/alerts/alert-schema";

const KINDS: { value: AlertKind; label: string }[] = [
  { value: "opportunity", label: "Opportunities (opened or updated)" },
  { value: "funding_interval", label: "Funding interval changes" },
  { value: "venue", label: "Venues going stale" },
  { value: "carry", label: "Carry opportunities (spot–perp)" },
];

const NUMBERS: { field: ConditionField; label: string; step: string }[] = [
  { field: "min_net_apr", label: "Minimum net APR (% per year)", step: "any" },
  { field: "min_paid_share_7d", label: "Minimum share of the last 7 days paid (0 to 1)", step: "any" },
  { field: "min_positive_hours", label: "Positive for at least (hours)", step: "any" },
  { field: "min_open_interest_usd", label: "Minimum open interest (USD)", step: "any" },
];

/** A number field's value for the API: null when left empty, the number otherwise (the server says what is wrong with it). */
function numberOf(form: FormData, name: string): number | null {
  const text = String(form.get(name) ?? "").trim();
  return text === "" ? null : Number(text);
}

/** The form adding a rule: the fields shown are those its kind uses. */
export function AlertCreator({ exchanges, endpoints, full, cap }: { exchanges: string[]; endpoints: { id: string; url: string }[]; full: boolean; cap: number }) {
  const router = useRouter();
  const { busy, problem, post } = useJsonPost<{ id: string }>();
  const [kind, setKind] = useState<AlertKind>("opportunity");
  const uses = (field: ConditionField) => KIND_CONDITIONS[kind].includes(field);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const target = event.currentTarget;
    const form = new FormData(target);
    const symbol = String(form.get("symbol") ?? "").trim().toUpperCase();
    const body: Record<string, unknown> = {
      name: String(form.get("name") ?? "").trim(),
      kind,
      exchanges: form.getAll("exchanges").map(String),
      endpoint_ids: form.getAll("endpoint_ids").map(String),
      cooldown_minutes: numberOf(form, "cooldown_minutes") ?? 60,
    };
    if (uses("symbol") && symbol) body.symbol = symbol;
    for (const { field } of NUMBERS) if (uses(field)) body[field] = numberOf(form, field);
    const answer = await post("/api/account/alerts", body);
    if (!answer) return;
    target.reset();
    setKind("opportunity");
    router.refresh();
  }

  if (full) return <p className="muted">Your plan allows {cap} alert rules: delete one to add another.</p>;
  return (
    <form onSubmit={submit} noValidate aria-label="Add an alert rule">
      <h3>Add a rule</h3>
      <LabelledField label="Name" problem={problem} name="name" type="text" required maxLength={100} placeholder="BTC above 15 % net" />
      <p>
        <label>
          Watch
          <select name="kind" value={kind} onChange={(e) => setKind(e.target.value as AlertKind)}>
            {KINDS.map((k) => (
              <option key={k.value} value={k.value}>
                {k.label}
              </option>
            ))}
          </select>
        </label>
      </p>
      {uses("symbol") ? (
        <LabelledField label="Symbol (optional)" problem={problem} name="symbol" type="text" maxLength={20} placeholder="BTC" />
      ) : (
        <FieldAlert problem={problem} field="symbol" />
      )}
      {NUMBERS.filter(({ field }) => uses(field)).map(({ field, label, step }) => (
        <div key={field}>
          <LabelledField label={`${label} (optional)`} problem={problem} name={field} type="number" step={step} inputMode="decimal" />
        </div>
      ))}
      <details>
        <summary>Exchanges (any when none is chosen)</summary>
        <fieldset>
          <legend>Only within these exchanges</legend>
          <CheckboxOptions name="exchanges" options={exchanges.map((exchange) => [exchange, exchange] as const)} />
        </fieldset>
      </details>
      <FieldAlert problem={problem} field="exchanges" />
      <fieldset>
        <legend>Deliver to webhook endpoints</legend>
        {endpoints.length === 0 ? (
          <p className="muted">No endpoints yet: alerts reach your streams and events only.</p>
        ) : (
          <CheckboxOptions name="endpoint_ids" options={endpoints.map((endpoint) => [endpoint.id, endpoint.url] as const)} />
        )}
      </fieldset>
      <FieldAlert problem={problem} field="endpoint_ids" />
      <LabelledField label="Cool-down (minutes)" problem={problem} name="cooldown_minutes" type="number" min={0} max={1440} step={1} defaultValue={60} />
      <FormAlert problem={problem} />
      <SubmitRow busy={busy}>Add rule</SubmitRow>
    </form>
  );
}
