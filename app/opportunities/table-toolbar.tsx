"use client";

import type { ReactNode } from "react";
import { APR_SCALE_LEGEND, PERSISTENCE_SCALE_LEGEND } from "@/lib/screener/colour-scale";
import { ALWAYS_SHOWN, COLUMN_LABELS, OPTIONAL_COLUMNS } from "@/lib/screener/screener-prefs";
import { useScreenerPrefs } from "./screener-prefs-store";
import styles from "./screener.module.css";

/** Where the screener's choices live, said wherever one is made. */
export const STORED = "Columns, density and saved filters are kept in this browser (localStorage), not in your account.";

/**
 * Above the table: how many rows, `children` (the size control on live plans), the column chooser, the density
 * switch, and the colour scale's legend. The choices stay in this browser.
 */
export function TableToolbar({ count, children }: { count: ReactNode; children?: ReactNode }) {
  const [prefs, update] = useScreenerPrefs();
  const compact = prefs.density === "compact";
  return (
    <div className={styles.toolbar}>
      <p className={styles.count}>{count}</p>
      {children}
      <details className={styles.columns}>
        <summary>Columns ({prefs.columns.length + ALWAYS_SHOWN.length} shown)</summary>
        <fieldset>
          <legend>Optional columns</legend>
          {OPTIONAL_COLUMNS.map((column) => (
            <label key={column}>
              <input
                type="checkbox"
                checked={prefs.columns.includes(column)}
                onChange={(event) =>
                  update({ columns: event.target.checked ? [...prefs.columns, column] : prefs.columns.filter((c) => c !== column) })
                }
              />{" "}
              {COLUMN_LABELS[column]}
            </label>
          ))}
          <p className="muted small-print">
            Symbol, legs, APR and net APR are always shown; the rest of a row is under its Details. {STORED}
          </p>
        </fieldset>
      </details>
      <button type="button" className="secondary small" aria-pressed={compact} onClick={() => update({ density: compact ? "comfortable" : "compact" })}>
        Compact rows
      </button>
      <ShadeLegend title="APR shading:" entries={APR_SCALE_LEGEND} />
      {prefs.columns.includes("persistence") && <ShadeLegend title="Persistence shading (settlements that paid, 7 days):" entries={PERSISTENCE_SCALE_LEGEND} />}
    </div>
  );
}

/** One colour scale's shades and what each means. */
function ShadeLegend({ title, entries }: { title: string; entries: readonly { shade: string; label: string }[] }) {
  return (
    <p className={styles.legend}>
      <span className="muted">{title}</span>
      {entries.map(({ shade, label }) => (
        <span key={shade} className={`${styles.swatch} ${styles[`shade-${shade}`]}`}>
          {label}
        </span>
      ))}
    </p>
  );
}
