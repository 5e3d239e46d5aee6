"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState, useSyncExternalStore, type FormEvent } from "react";
import { SORTS, type Sort } from "@/lib/market/opportunities/opportunity-query";
import { VENUE_IDS, type VenueId } from "@/lib/market/model/types";
import { VENUE_NAMES } from "@/lib/market/venues/venue-names";
import { filterQuery } from "@/lib/screener/screener-prefs";
import { savedFilters, useScreenerPrefs } from "./screener-prefs-store";
import styles from "./screener.module.css";
import { STORED } from "./table-toolbar";

const SORT_LABELS: Record<Sort, string> = {
  "-apr": "APR, highest first",
  apr: "APR, lowest first",
  "-net_apr": "Net APR, highest first",
  net_apr: "Net APR, lowest first",
  "-open_interest": "Open interest, largest first",
  open_interest: "Open interest, smallest first",
  stability: "Stability, steadiest first",
  "-stability": "Stability, least steady first",
};

/** The values as the URL has them, so a refused value stays in its field to be corrected. */
export interface FilterValues {
  exchange: string;
  /** The venues ticked: both legs of every row are among them. */
  exchanges: string[];
  min_apr: string;
  symbol: string;
  sort: string;
  limit: string;
}

/** Set by "Clear" for the next bare /opportunities only: the trader asked for no filters, saved or not. */
const SKIP_SAVED = "fods.screener.skip-saved";
/** Sets the one-shot "Clear" mark, or reads and removes it; storage refused means no mark. */
function session(action: "set" | "take"): boolean {
  try {
    if (action === "set") window.sessionStorage.setItem(SKIP_SAVED, "1");
    else if (window.sessionStorage.getItem(SKIP_SAVED)) {
      window.sessionStorage.removeItem(SKIP_SAVED);
      return true;
    }
  } catch {
    // Private modes and policies may refuse storage.
  }
  return false;
}

/** Phones get the filters folded away: the table is what the first screen is for. */
const NARROW = "(max-width: 40rem)";

function subscribeNarrow(onChange: () => void): () => void {
  const query = window.matchMedia(NARROW);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/**
 * A plain GET form (it works without JavaScript); with it, the URL it navigates to leaves out
 * empty fields and the default sort, so the address stays short enough to share. Folded on
 * phones (open on wider screens unless the trader folds it); saves its filters to this browser,
 * which a bare /opportunities then opens with.
 */
export function FilterForm({ values, active }: { values: FilterValues; active: string }) {
  const router = useRouter();
  const narrow = useSyncExternalStore(subscribeNarrow, () => window.matchMedia(NARROW).matches, () => false);
  const [folded, setFolded] = useState<boolean | null>(null);
  const open = folded === null ? !narrow : !folded;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const search = new URLSearchParams();
    const venues: string[] = [];
    for (const [name, value] of new FormData(event.currentTarget)) {
      const text = String(value).trim();
      if (text === "" || (name === "sort" && text === "-apr")) continue;
      if (name === "exchanges") venues.push(text);
      else search.set(name, text);
    }
    // Every venue ticked is the same as none: no filter.
    if (venues.length > 0 && venues.length < VENUE_IDS.length) search.set("exchanges", venues.join(","));
    const query = search.toString().replaceAll("%2C", ",");
    router.push(query ? `/opportunities?${query}` : "/opportunities");
  };
  return (
    <details className={styles.filtersBox} open={open} onToggle={(event) => setFolded(!event.currentTarget.open)}>
      <summary>
        Filters{active ? <span className="muted">: {active}</span> : <span className="muted">: none</span>}
      </summary>
      <form method="get" action="/opportunities" className={`filters ${styles.filters}`} aria-label="Filter opportunities" onSubmit={submit}>
        <FilterSelect name="exchange" label="Exchange" value={values.exchange} options={[["", "All exchanges"], ...VENUE_IDS.map((id) => [id, VENUE_NAMES[id]] as const)]} />
        <VenuePicker selected={values.exchanges} />
        <div>
          <label htmlFor="f-min-apr">Min APR (%)</label>
          <input id="f-min-apr" name="min_apr" inputMode="decimal" size={8} defaultValue={values.min_apr} />
        </div>
        <div>
          <label htmlFor="f-symbol">Symbol</label>
          <input id="f-symbol" name="symbol" size={10} defaultValue={values.symbol} />
        </div>
        <FilterSelect name="sort" label="Sort by" value={values.sort || "-apr"} options={SORTS.map((sort) => [sort, SORT_LABELS[sort]] as const)} />
        {values.limit && <input type="hidden" name="limit" value={values.limit} />}
        <div className="filter-actions">
          <button type="submit">Apply</button>
          <Link href="/opportunities" onClick={() => session("set")}>
            Clear
          </Link>
        </div>
        <SavedFilters />
      </form>
    </details>
  );
}

/**
 * "Save filters": the filters applied now (the address's, not unsent fields) become what a bare
 * /opportunities opens with in this browser; "Forget" removes them.
 */
function SavedFilters() {
  const [prefs, update] = useScreenerPrefs();
  return (
    <div className={`filter-actions ${styles.saved}`}>
      <button type="button" className="secondary small" onClick={() => update({ filters: filterQuery(window.location.search) })} aria-describedby="f-stored">
        Save filters
      </button>
      {prefs.filters !== "" && (
        <>
          <span className="small-print" data-testid="saved-filters">
            Saved in this browser: <code>{prefs.filters}</code>
          </span>
          <button type="button" className="secondary small" onClick={() => update({ filters: "" })}>
            Forget saved filters
          </button>
        </>
      )}
      <span className="muted small-print" id="f-stored">
        {STORED}
      </span>
    </div>
  );
}

/**
 * On a bare /opportunities, opens the filters this browser saved (unless "Clear" led here).
 * Renders nothing.
 */
export function OpenSavedFilters({ bare }: { bare: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!bare) return;
    if (session("take")) return;
    const saved = savedFilters();
    if (saved) router.replace(`/opportunities?${saved}`);
  }, [bare, router]);
  return null;
}

/** One labelled drop-down of the filter row, its id `f-<name>`; `options` are value and label pairs. */
export function FilterSelect({ name, label, value, options }: { name: string; label: string; value: string; options: readonly (readonly [string, string])[] }) {
  return (
    <div>
      <label htmlFor={`f-${name}`}>{label}</label>
      <select id={`f-${name}`} name={name} defaultValue={value}>
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The venues a trader can use: rows whose two legs are both among the ticked ones. A disclosure
 * rather than a 23-line list, so the filter row stays one line; plain checkboxes, so it works
 * without JavaScript (the page joins the repeated `exchanges` values).
 */
function VenuePicker({ selected }: { selected: string[] }) {
  const summary =
    selected.length === 0 ? "All venues" : selected.length === 1 ? VENUE_NAMES[selected[0] as VenueId] ?? selected[0] : `${selected.length} venues`;
  return (
    <div className={styles.venueField}>
      <span className="field-label" id="f-venues-label">
        Both legs on
      </span>
      <details className={`venue-picker ${styles.venuePicker}`}>
        <summary aria-describedby="f-venues-label">{summary}</summary>
        <fieldset aria-labelledby="f-venues-label">
          {VENUE_IDS.map((id) => (
            <label key={id} className="venue-option">
              <input type="checkbox" name="exchanges" value={id} defaultChecked={selected.includes(id)} /> {VENUE_NAMES[id]}
            </label>
          ))}
        </fieldset>
      </details>
    </div>
  );
}
