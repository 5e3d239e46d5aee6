import type { ReactNode } from "react";
import { legFieldAges, type FieldAge, type TimedLegField } from "@/lib/market/model/leg-field-ages";
import type { ServedLeg } from "@/lib/market/model/types";
import { formatFundingRate, formatInterval, formatSeconds, formatUsdCompact } from "@/lib/screener/format";
import { formatUtc } from "@/lib/format-time";
import styles from "./opportunity.module.css";

interface Row {
  field: TimedLegField;
  label: string;
  value: (leg: ServedLeg) => ReactNode;
}

const rate = (value: number | null) => (value === null ? "—" : formatFundingRate(value));
const time = (iso: string | null, none = "—") => (iso === null ? none : <time dateTime={iso}>{formatUtc(iso)}</time>);
const price = (value: number | null) => (value === null ? "—" : String(value));

/** Every field GET /v1/opportunities/{id} gives for a leg, in the order a trader reads them. */
const ROWS: readonly Row[] = [
  { field: "market", label: "Market", value: (leg) => <code>{leg.market}</code> },
  { field: "funding_rate", label: "Funding rate", value: (leg) => `${rate(leg.funding_rate)} / ${formatInterval(leg.funding_interval_hours)}` },
  { field: "funding_rate_per_hour", label: "Rate per hour", value: (leg) => rate(leg.funding_rate_per_hour) },
  { field: "funding_interval_hours", label: "Funding interval", value: (leg) => formatInterval(leg.funding_interval_hours) },
  { field: "funding_interval_source", label: "Interval read from", value: (leg) => leg.funding_interval_source ?? "not recorded" },
  { field: "predicted_funding_rate", label: "Venue's forecast", value: (leg) => (leg.predicted_funding_rate === null ? "none published" : rate(leg.predicted_funding_rate)) },
  { field: "next_funding_at", label: "Next funding", value: (leg) => time(leg.next_funding_at, "none scheduled") },
  { field: "last_settled_rate", label: "Last settled rate", value: (leg) => (leg.last_settled_rate === null ? "none recorded" : rate(leg.last_settled_rate)) },
  { field: "last_settled_at", label: "Last settled at", value: (leg) => time(leg.last_settled_at, "none recorded") },
  { field: "rate_cap", label: "Rate cap", value: (leg) => (leg.rate_cap === null ? "none stated" : rate(leg.rate_cap)) },
  { field: "rate_floor", label: "Rate floor", value: (leg) => (leg.rate_floor === null ? "none stated" : rate(leg.rate_floor)) },
  { field: "at_cap", label: "At cap or floor", value: (leg) => (leg.at_cap ? "yes: the spread is clamped" : "no") },
  { field: "interval_changed_at", label: "Interval last changed", value: (leg) => time(leg.interval_changed_at, "not in the last 7 days") },
  { field: "mark_price", label: "Mark price", value: (leg) => price(leg.mark_price) },
  { field: "open_interest_usd", label: "Open interest", value: (leg) => formatUsdCompact(leg.open_interest_usd) },
  { field: "volume_24h_usd", label: "Volume 24h", value: (leg) => formatUsdCompact(leg.volume_24h_usd) },
  { field: "transport", label: "Reached the service by", value: (leg) => (leg.transport === "stream" ? "stream (WebSocket)" : "poll (REST)") },
  { field: "underlying_class", label: "Underlying", value: (leg) => leg.underlying_class ?? "crypto" },
  { field: "trading_hours", label: "Trading hours", value: (leg) => (leg.trading_hours === undefined ? "around the clock" : leg.trading_hours) },
];

/** A field's age in words: what its time is and how long before the view's moment it was. */
function Age({ age }: { age: FieldAge }) {
  if (age.basis === "listing") return null;
  if (age.at === null) return age.basis === "observed" ? <small className={styles.age}>age unknown</small> : null;
  return <small className={styles.age}>{age.basis === "observed" ? `${formatSeconds(age.age_seconds)} old` : `${formatSeconds(age.age_seconds)} ago`}</small>;
}

/**
 * Both legs side by side, a row per field the API gives, each value with its age at the view's
 * moment (`atMs`): the observation's fields by the leg's `observed_at` (its `age_seconds` as the
 * API serves it), the last settlement and the interval change by their own times.
 */
export function LegFieldsTable({ long, short, atMs, staleNotes }: { long: ServedLeg; short: ServedLeg; atMs: number; staleNotes: { long: string | null; short: string | null } }) {
  const legs = [
    { side: "Long", leg: long, ages: legFieldAges(long, atMs), note: staleNotes.long },
    { side: "Short", leg: short, ages: legFieldAges(short, atMs), note: staleNotes.short },
  ];
  return (
    <table className={styles.legs} data-testid="legs">
      <caption>
        Both legs: every field the API gives, each with its age at <time dateTime={new Date(atMs).toISOString()}>{formatUtc(new Date(atMs))}</time>
      </caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          {legs.map(({ side, leg }) => (
            <th scope="col" key={side}>
              {side}: {leg.exchange}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        <tr data-field="observed_at">
          <th scope="row">Observed</th>
          {legs.map(({ side, leg, note }) => (
            <td key={side}>
              {leg.observed_at === null ? "not known" : time(leg.observed_at)}
              <small className={styles.age} data-testid={`age-${side.toLowerCase()}`}>
                {leg.age_seconds === null ? "age unknown" : `${formatSeconds(leg.age_seconds)} old`} · {leg.transport}
              </small>
              {leg.stale ? (
                <>
                  <span className="badge badge-stale" data-testid="stale-leg">
                    stale
                  </span>
                  {note && <small className={styles.age}>{note}</small>}
                </>
              ) : (
                <span className={styles.fresh}>fresh</span>
              )}
            </td>
          ))}
        </tr>
        {ROWS.map((row) => (
          <tr key={row.field} data-field={row.field}>
            <th scope="row">{row.label}</th>
            {legs.map(({ side, leg, ages }) => (
              <td key={side}>
                {row.value(leg)}
                <Age age={ages[row.field]} />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
