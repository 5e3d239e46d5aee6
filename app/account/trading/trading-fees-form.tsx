"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { DataTable } from "@/app/components/data-table";
import { postJson, problemFrom } from "@/app/components/field-errors";
import { parsePercentFee, type VenueFee } from "@/lib/fees/fee-schema";

type Outcome = { kind: "ok"; text: string } | { kind: "error"; text: string };

/** Decimal to the percent the form shows, without float noise (0.00055 → "0.055"). */
const percent = (fee: number) => String(Number((fee * 100).toPrecision(10)));

/** One row per venue: its base-tier fee, and an input for the account's own (empty: the venue's). */
export function TradingFeesForm({ venues }: { venues: VenueFee[] }) {
  const router = useRouter();
  const initial = Object.fromEntries(venues.map((v) => [v.exchange, v.account_taker_fee === null ? "" : percent(v.account_taker_fee)]));
  const [values, setValues] = useState<Record<string, string>>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setOutcome(null);
    const fieldErrors: Record<string, string> = {};
    const update: Record<string, number | null> = {};
    for (const v of venues) {
      const parsed = parsePercentFee(values[v.exchange] ?? "");
      if ("error" in parsed) fieldErrors[v.exchange] = parsed.error;
      // Only what changed is sent, so an untouched venue keeps its own fee and its date.
      else if (parsed.fee !== v.account_taker_fee) update[v.exchange] = parsed.fee;
    }
    setErrors(fieldErrors);
    if (Object.keys(fieldErrors).length > 0) return;
    if (Object.keys(update).length === 0) {
      setOutcome({ kind: "ok", text: "Nothing changed." });
      return;
    }
    setBusy(true);
    try {
      const response = await postJson("/api/account/fees", update);
      if (!response.ok) {
        const problem = await problemFrom(response);
        setErrors(problem.fields);
        setOutcome({ kind: "error", text: problem.message });
        return;
      }
      setOutcome({ kind: "ok", text: "Fees saved: quotes and simulations charge them from now on." });
      router.refresh();
    } catch {
      setOutcome({ kind: "error", text: "Could not reach the server. Check your connection and try again." });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={save} noValidate>
      <DataTable aria-label="Taker fees by exchange" columns={["Exchange", "Venue base tier", "Your taker fee (%)", "Charged"]}>
        {venues.map((v) => (
          <tr key={v.exchange}>
            <th scope="row">{v.exchange}</th>
            <td>
              {percent(v.venue_taker_fee)} %{v.venue_taker_fee_source === "default" && <span className="muted"> (not stated: highest base tier)</span>}
            </td>
            <td>
              <input
                type="text"
                inputMode="decimal"
                aria-label={`Your taker fee on ${v.exchange}, percent`}
                aria-invalid={errors[v.exchange] ? true : undefined}
                aria-describedby={errors[v.exchange] ? `fee-error-${v.exchange}` : undefined}
                placeholder={percent(v.venue_taker_fee)}
                value={values[v.exchange] ?? ""}
                onChange={(e) => setValues({ ...values, [v.exchange]: e.target.value })}
              />
              {errors[v.exchange] && (
                <span className="error" id={`fee-error-${v.exchange}`}>
                  {errors[v.exchange]}
                </span>
              )}
            </td>
            <td>
              {percent(v.taker_fee)} %{v.account_taker_fee !== null && <span className="muted"> (yours)</span>}
            </td>
          </tr>
        ))}
      </DataTable>
      <p className="actions">
        <button type="submit" disabled={busy}>
          Save fees
        </button>
      </p>
      {outcome && (
        <p role={outcome.kind === "error" ? "alert" : "status"} className={outcome.kind === "error" ? "error" : undefined}>
          {outcome.text}
        </p>
      )}
    </form>
  );
}
