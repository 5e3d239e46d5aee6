import type { ExportFormat } from "./export-format";

/** The web app's download route: GET /v1/exports/funding-rates under the session (app/api/exports/funding-rates). */
export const EXPORT_DOWNLOAD_PATH = "/api/exports/funding-rates";

/** Most assets one export names (`symbols`). */
export const MAX_EXPORT_SYMBOLS = 50;

export interface ExportLinkSelection {
  exchanges: readonly string[];
  symbols: readonly string[];
  from: Date | string;
  to: Date | string;
}

/** The download link of `selection` in `format`; null when it names more assets than one export takes. */
export function exportHref(selection: ExportLinkSelection, format: ExportFormat): string | null {
  const symbols = [...new Set(selection.symbols)].sort();
  if (symbols.length === 0 || symbols.length > MAX_EXPORT_SYMBOLS) return null;
  const iso = (at: Date | string) => (typeof at === "string" ? at : at.toISOString());
  const search = new URLSearchParams({
    exchanges: [...new Set(selection.exchanges)].sort().join(","),
    symbols: symbols.join(","),
    from: iso(selection.from),
    to: iso(selection.to),
    format,
  });
  return `${EXPORT_DOWNLOAD_PATH}?${search.toString().replaceAll("%2C", ",").replaceAll("%3A", ":")}`;
}
