"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import type { Position } from "@/lib/portfolio/position-schema";
import type { Simulation } from "@/lib/sim/simulation-schema";
import type { FormProblem } from "../components/field-errors";
import { useJsonPost } from "../components/use-json-post";
import { formatSignedUsd } from "./money";
import { PnlSeriesChart } from "./pnl-series-chart";

function fieldProblem(problem: FormProblem | null, field: string) {
  const message = problem?.fields[field];
  return message ? <p className="field-error">{message}</p> : null;
}

/** The server's refusal of a row form, with its message for `field` when it names that field. */
function PanelProblem({ problem, field }: { problem: FormProblem | null; field?: string }) {
  if (!problem) return null;
  const detail = field && problem.fields[field];
  return (
    <p className="error" role="alert">
      {problem.message}
      {detail ? `: ${detail}` : ""}
    </p>
  );
}

/** The notional both row forms start with, and the server's message for it. */
function NotionalField({ value, onChange, problem }: { value: string; onChange: (value: string) => void; problem: FormProblem | null }) {
  return (
    <>
      <label>
        Notional (USD)
        <input type="number" min={1} step="any" required value={value} onChange={(e) => onChange(e.target.value)} />
      </label>
      {fieldProblem(problem, "notional_usd")}
    </>
  );
}

/** The screener row's "Simulate": a small form, then net P&L, APR, fees and break-even, and for replays the daily series. */
export function SimulatePanel({ id }: { id: string }) {
  const [notional, setNotional] = useState("10000");
  const [days, setDays] = useState("7");
  const [mode, setMode] = useState<"projected" | "historical">("projected");
  const { busy, problem, post } = useJsonPost<Simulation>();
  const [result, setResult] = useState<Simulation | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setResult(await post("/api/simulations", { opportunity_id: id, notional_usd: Number(notional), holding_days: Number(days), mode }));
  }

  return (
    <div className="row-panel" aria-label={`Simulate ${id}`} role="region">
      <form className="inline-form" onSubmit={submit}>
        <NotionalField value={notional} onChange={setNotional} problem={problem} />
        <label>
          Holding days
          <input type="number" min={1} max={365} step={1} required value={days} onChange={(e) => setDays(e.target.value)} />
        </label>
        {fieldProblem(problem, "holding_days")}
        <label>
          Mode
          <select value={mode} onChange={(e) => setMode(e.target.value as "projected" | "historical")}>
            <option value="projected">Projected (current rates held)</option>
            <option value="historical">Historical (replay recorded settlements)</option>
          </select>
        </label>
        <button type="submit" disabled={busy}>
          {busy ? "Simulating…" : "Run simulation"}
        </button>
      </form>
      <PanelProblem problem={problem} field="opportunity_id" />
      {result && (
        <div data-testid="simulation-result" role="status">
          <dl className="result-grid">
            <div>
              <dt>Net P&amp;L</dt>
              <dd className={result.net_pnl_usd < 0 ? "negative" : undefined}>{formatSignedUsd(result.net_pnl_usd)}</dd>
            </div>
            <div>
              <dt>Net APR</dt>
              <dd>{result.net_apr.toFixed(2)}%</dd>
            </div>
            <div>
              <dt>Fees</dt>
              <dd>{formatSignedUsd(-(result.fees_usd + result.slippage_usd))}</dd>
            </div>
            <div>
              <dt>Break-even</dt>
              <dd>{result.break_even_days === null ? "Never" : `${result.break_even_days.toFixed(1)} days`}</dd>
            </div>
          </dl>
          <p className="muted">
            {result.mode === "projected"
              ? `Current rates held for ${result.holding_days} days on ${formatSignedUsd(result.notional_usd).replace("+", "")} per leg.`
              : `Replay of the last ${result.holding_days} days' recorded settlements (${result.long.settlements + result.short.settlements} in all).`}
          </p>
          {result.daily && result.daily.length > 0 && <PnlSeriesChart daily={result.daily} label={`Daily cumulative P&L of ${id}`} />}
          {result.daily && result.daily.length === 0 && <p className="muted">No settlements were recorded in this window.</p>}
        </div>
      )}
    </div>
  );
}

/** The screener row's "Add to portfolio": notional and an optional note, added to the live portfolio at the current APR. */
export function AddPositionPanel({ id }: { id: string }) {
  const [notional, setNotional] = useState("10000");
  const [note, setNote] = useState("");
  const { busy, problem, post } = useJsonPost<Position>();
  const [added, setAdded] = useState<Position | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setAdded(await post("/api/portfolio/positions", { opportunity_id: id, notional_usd: Number(notional), ...(note.trim() && { note: note.trim() }) }));
  }

  if (added) {
    return (
      <p className="row-panel" role="status">
        Added {added.symbol} (long {added.long.exchange}, short {added.short.exchange}) to your portfolio.{" "}
        <Link href="/portfolio">View portfolio</Link>
      </p>
    );
  }
  return (
    <div className="row-panel" aria-label={`Add ${id} to portfolio`} role="region">
      <form className="inline-form" onSubmit={submit}>
        <NotionalField value={notional} onChange={setNotional} problem={problem} />
        <label>
          Note (optional)
          <input type="text" maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
        </label>
        {fieldProblem(problem, "note")}
        <button type="submit" disabled={busy}>
          {busy ? "Adding…" : "Add position"}
        </button>
      </form>
      <PanelProblem problem={problem} />
    </div>
  );
}
