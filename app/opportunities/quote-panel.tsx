"use client";

import { useState, type FormEvent } from "react";
import { MAX_HOLD_HOURS, MAX_QUOTE_LEVERAGE, type Quote, type QuoteLeg } from "@/lib/quote/quote-schema";
import type { ScreenerQuote } from "@/lib/screener/screener-quotes";
import { formatApr, formatBps } from "@/lib/screener/format";
import { ScrollRegion } from "@/app/components/scroll-region";
import { formatSignedUsd, formatUsd } from "./money";

/** Fetches quotes of `ids` at a size through the session route; an error is one message for all. */
export async function fetchQuotes(ids: readonly string[], notional: number, holdHours = 72, leverage = 1): Promise<ScreenerQuote[]> {
  const query = new URLSearchParams({ ids: ids.join(","), notional: String(notional), hold_hours: String(holdHours), leverage: String(leverage) });
  const response = await fetch(`/api/opportunities/quotes?${query}`);
  const body = (await response.json()) as { data?: { items: ScreenerQuote[] }; error?: { message: string; details?: { field: string; message: string }[] } };
  if (!response.ok || !body.data) {
    const detail = body.error?.details?.[0];
    throw new Error(detail ? `${detail.field}: ${detail.message}` : (body.error?.message ?? `The server answered ${response.status}`));
  }
  return body.data.items;
}

/**
 * The "Size" control above the table: when a size is applied, quotes the rows on screen (only
 * those: `ids` is the page shown) and hands each row's net APR at that size to `onQuotes`.
 */
export function SizeControl({ ids, onQuotes }: { ids: readonly string[]; onQuotes: (quotes: Map<string, ScreenerQuote> | null, size: number | null) => void }) {
  const [size, setSize] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function apply(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (size.trim() === "") {
      onQuotes(null, null);
      return;
    }
    const notional = Number(size);
    if (!(notional > 0)) {
      setError("Enter a size in USD, more than 0");
      return;
    }
    setBusy(true);
    try {
      const items = await fetchQuotes(ids, notional);
      onQuotes(new Map(items.map((q) => [q.id, q])), notional);
    } catch (e) {
      setError(e instanceof Error ? e.message : "Could not reach the server");
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="inline-form" onSubmit={apply} aria-label="Net APR at a size">
      <label>
        Size (USD a leg)
        <input type="number" min={1} step="any" placeholder="e.g. 50000" value={size} onChange={(e) => setSize(e.target.value)} />
      </label>
      <button type="submit" className="secondary" disabled={busy}>
        {busy ? "Quoting…" : "Show net APR at size"}
      </button>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/** A row's net APR at the applied size, or why there is none. */
export function SizedApr({ quote }: { quote: ScreenerQuote | undefined }) {
  if (!quote) return <>—</>;
  if ("error" in quote) return <span title={quote.error.message}>n/a</span>;
  const apr = quote.quote.net_apr;
  return (
    <span className={apr !== null && apr < 0 ? "negative" : undefined} title={quote.quote.thin_book ? "Thin book: quoted at what could be filled" : undefined}>
      {apr === null ? "—" : formatApr(apr)}
      {quote.quote.thin_book && " (thin)"}
    </span>
  );
}

/** The screener row's "Quote": a size, hold and leverage, then per-leg fills, costs, funding, net, breakeven and liquidation. */
export function QuotePanel({ id, initialSize }: { id: string; initialSize: number | null }) {
  const [notional, setNotional] = useState(String(initialSize ?? 10_000));
  const [hours, setHours] = useState("72");
  const [leverage, setLeverage] = useState("1");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [quote, setQuote] = useState<Quote | null>(null);

  async function run(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const [item] = await fetchQuotes([id], Number(notional), Number(hours), Number(leverage));
      if (!item || "error" in item) setError(item ? item.error.message : "No answer");
      else setQuote(item.quote);
    } catch (e) {
      setError(e instanceof Error ? e.message : "Could not reach the server");
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="row-panel" aria-label={`Quote ${id}`} role="region">
      <form className="inline-form" onSubmit={run}>
        <label>
          Notional (USD a leg)
          <input type="number" min={1} step="any" required value={notional} onChange={(e) => setNotional(e.target.value)} />
        </label>
        <label>
          Hold (hours)
          <input type="number" min={1} max={MAX_HOLD_HOURS} step={1} required value={hours} onChange={(e) => setHours(e.target.value)} />
        </label>
        <label>
          Leverage
          <input type="number" min={1} max={MAX_QUOTE_LEVERAGE} step="any" required value={leverage} onChange={(e) => setLeverage(e.target.value)} />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? "Quoting…" : "Quote"}
        </button>
      </form>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {quote && <QuoteFigures quote={quote} />}
    </div>
  );
}

function QuoteFigures({ quote }: { quote: Quote }) {
  return (
    <div data-testid="quote-figures">
      {quote.thin_book && (
        <p className="notice" role="status">
          Thin book: only {formatUsd(quote.filled_notional_usd)} a leg could be filled; every figure is of that size.
        </p>
      )}
      <ScrollRegion label={`Quote of ${quote.opportunity_id} per leg`}>
        <table>
          <caption>
            Each leg at {formatUsd(quote.filled_notional_usd)}, held {quote.hold_hours} h
          </caption>
          <thead>
            <tr>
              <th scope="col">Leg</th>
              <th scope="col" className="num">Entry avg (slippage)</th>
              <th scope="col" className="num">Exit avg (slippage)</th>
              <th scope="col" className="num">Fee</th>
              <th scope="col" className="num">Fees + slippage</th>
              <th scope="col" className="num">Funding</th>
              <th scope="col" className="num">Liquidation</th>
            </tr>
          </thead>
          <tbody>
            {[quote.long, quote.short].map((leg) => (
              <LegRow key={leg.side} leg={leg} />
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <dl className="figures">
        <dt>Entry + exit cost</dt>
        <dd>
          {formatSignedUsd(-quote.cost_usd)} ({formatBps(quote.cost_bps)})
        </dd>
        <dt>Funding over {quote.hold_hours} h</dt>
        <dd>{formatSignedUsd(quote.funding_usd)}</dd>
        <dt>Net</dt>
        <dd data-testid="quote-net">
          {formatSignedUsd(quote.net_usd)} · {quote.net_apr === null ? "—" : formatApr(quote.net_apr)}
        </dd>
        <dt>Breakeven</dt>
        <dd>{quote.breakeven_hours === null ? "not within a year" : `${quote.breakeven_hours} h`}</dd>
        <dt>Largest size within 10 bps</dt>
        <dd>{formatUsd(quote.max_notional_within_10bps_usd)}</dd>
      </dl>
    </div>
  );
}

function LegRow({ leg }: { leg: QuoteLeg }) {
  const fill = (f: QuoteLeg["entry"]) => (f.average_price === null ? "—" : `${f.average_price} (${formatBps(f.slippage_bps)})`);
  const liq = leg.liquidation;
  return (
    <tr>
      <th scope="row">
        {leg.side} {leg.exchange}
      </th>
      <td className="num">{fill(leg.entry)}</td>
      <td className="num">{fill(leg.exit)}</td>
      <td className="num">
        {Number((leg.taker_fee * 100).toPrecision(10))} %{leg.taker_fee_source === "account" && " (yours)"}
      </td>
      <td className="num">{formatSignedUsd(-(leg.fees_usd + leg.slippage_usd))}</td>
      <td className="num">{formatSignedUsd(leg.funding.funding_usd)}</td>
      <td className="num">
        {liq.price === null ? <span title={liq.unavailable_reason ?? undefined}>n/a ({liq.unavailable_reason})</span> : `${liq.price} (${liq.distance_pct} %)`}
      </td>
    </tr>
  );
}
