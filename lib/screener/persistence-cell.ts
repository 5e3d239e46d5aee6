import type { Persistence } from "@/lib/market/model/types";
import { formatApr } from "./format";

/** The screener's persistence cell: one short line and the full figures for the tooltip. */
export interface PersistenceCell {
  /** "paid 86% · med 12.30%", or "—" when nothing is known yet. */
  text: string;
  /** Every figure in words, or why there are none. */
  title: string;
}

/**
 * Whether a pair has persistence figures to show: the paid share or the median, which need enough
 * observed hours; other fields alone (a computed-to time, a deviation) say nothing a trader reads. Pure.
 */
export function hasPersistenceFigures(p: Persistence): boolean {
  return p.paid_share_7d !== null || p.apr_median_7d !== null;
}

/** How steadily a pair has paid, as the screener shows it. Pure. */
export function persistenceCell(p: Persistence): PersistenceCell {
  if (!hasPersistenceFigures(p)) {
    return { text: "—", title: "Not enough stored history for this pair yet (figures need 75 % of the hours observed)." };
  }
  const share = p.paid_share_7d === null ? null : `paid ${Math.round(p.paid_share_7d * 100)}%`;
  const median = p.apr_median_7d === null ? null : `med ${formatApr(p.apr_median_7d)}`;
  const lines = [
    `Settlements that paid the right way over 7 days: ${p.paid_share_7d === null ? "unknown" : `${(p.paid_share_7d * 100).toFixed(1)}%`}`,
    `Median APR: 7 days ${formatApr(p.apr_median_7d)}, 30 days ${formatApr(p.apr_median_30d)}`,
    `Deviation of the 7-day APR: ${formatApr(p.apr_stddev_7d)}`,
    `Positive since: ${p.positive_since === null ? "not positive in the last whole hour" : `${p.positive_since.slice(0, 16).replace("T", " ")} UTC`}`,
  ];
  if (p.as_of !== null) lines.push(`As of ${p.as_of.slice(0, 16).replace("T", " ")} UTC`);
  return { text: [share, median].filter((part) => part !== null).join(" · "), title: lines.join("\n") };
}
