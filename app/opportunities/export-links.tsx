import { exportHref, MAX_EXPORT_SYMBOLS, type ExportLinkSelection } from "@/lib/history/export/export-href";

/**
 * "Download CSV · Parquet" for a selection's funding settlements: plain links to the session's
 * export route, which the browser saves under the file name the answer gives.
 */
export function ExportLinks({ selection, label }: { selection: ExportLinkSelection; label: string }) {
  const csv = exportHref(selection, "csv");
  const parquet = exportHref(selection, "parquet");
  if (!csv || !parquet) {
    return <p className="muted small-print">One download names at most {MAX_EXPORT_SYMBOLS} assets: narrow the filters to download this selection&apos;s funding history.</p>;
  }
  return (
    <p className="export-links small-print">
      {label}: <a href={csv} download>Download CSV</a> · <a href={parquet} download>Download Parquet</a>
    </p>
  );
}
