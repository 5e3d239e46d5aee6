import { z } from "zod";

/**
 * What a browser remembers of the screener (in its localStorage, never on the account): the
 * filters to open with, the optional columns shown, and the row density. Pure: parsing and
 * serialising only; app/opportunities/screener-prefs-store.ts does the storage.
 */

/** The columns every row shows whatever the trader chooses: symbol, both legs, APR and net APR. */
export const ALWAYS_SHOWN = ["symbol", "long", "short", "apr", "net_apr"] as const;

/** The columns a trader may hide or show, beside ALWAYS_SHOWN. */
export const OPTIONAL_COLUMNS = ["apr_1d", "apr_7d", "persistence", "spread", "open_interest", "volume", "updated"] as const;
export type OptionalColumn = (typeof OPTIONAL_COLUMNS)[number];

export const COLUMN_LABELS: Record<OptionalColumn, string> = {
  apr_1d: "1d avg APR",
  apr_7d: "7d avg APR",
  persistence: "Persistence",
  spread: "Price spread",
  open_interest: "Open interest",
  volume: "Volume 24h",
  updated: "Updated",
};

/** Shown until a trader chooses: what fits 1280 px beside the legs with room for a size column. */
export const DEFAULT_COLUMNS: readonly OptionalColumn[] = ["apr_7d", "persistence", "spread", "open_interest", "volume"];

export type Density = "comfortable" | "compact";

export interface ScreenerPrefs {
  /** A screener query string without "?" (only the filter parameters), or "" for none saved. */
  filters: string;
  columns: readonly OptionalColumn[];
  density: Density;
}

export const DEFAULT_PREFS: ScreenerPrefs = { filters: "", columns: DEFAULT_COLUMNS, density: "comfortable" };

/** The query parameters a saved filter keeps: the page offset is where one was, not a filter. */
const FILTER_PARAMS = new Set(["exchange", "exchanges", "min_apr", "symbol", "sort", "limit"]);
const MAX_FILTER_LENGTH = 2_000;

/** `search` (with or without "?") reduced to the filter parameters, in a stable order. Pure. */
export function filterQuery(search: string): string {
  const kept = new URLSearchParams();
  for (const [name, value] of new URLSearchParams(search.startsWith("?") ? search.slice(1) : search)) {
    if (FILTER_PARAMS.has(name) && value.trim() !== "" && !kept.has(name)) kept.set(name, value.trim());
  }
  kept.sort();
  const text = kept.toString().replaceAll("%2C", ",");
  return text.length <= MAX_FILTER_LENGTH ? text : "";
}

// Each field falls back on its own: a stored value from another version loses only what it got wrong.
const storedSchema = z.object({
  filters: z.string().catch(""),
  columns: z.array(z.string()).nullable().catch(null),
  density: z.enum(["comfortable", "compact"]).catch("comfortable"),
});

/** What localStorage held (null when nothing), read leniently: anything unreadable is the default. Pure. */
export function parsePrefs(stored: string | null): ScreenerPrefs {
  if (stored === null) return DEFAULT_PREFS;
  let json: unknown;
  try {
    json = JSON.parse(stored);
  } catch {
    return DEFAULT_PREFS;
  }
  const parsed = storedSchema.safeParse(json);
  if (!parsed.success) return DEFAULT_PREFS;
  const { filters, columns, density } = parsed.data;
  const known = new Set<string>(OPTIONAL_COLUMNS);
  return {
    filters: filterQuery(filters),
    // In the table's order, whatever order they were stored in; unknown ids dropped.
    columns: columns === null ? DEFAULT_COLUMNS : OPTIONAL_COLUMNS.filter((c) => known.has(c) && columns.includes(c)),
    density,
  };
}

export function serialisePrefs(prefs: ScreenerPrefs): string {
  return JSON.stringify({ filters: prefs.filters, columns: [...prefs.columns], density: prefs.density });
}
