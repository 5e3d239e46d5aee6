import type { FundingSettlement } from "@/lib/market/model/funding-settlement";

/** The formats an export is written in, and how each is served. */
export const EXPORT_FORMATS = {
  csv: { contentType: "text/csv; charset=utf-8; header=present", extension: "csv" },
  parquet: { contentType: "application/vnd.apache.parquet", extension: "parquet" },
} as const;
export type ExportFormat = keyof typeof EXPORT_FORMATS;

/** The columns of an export, in order: the fields of a settlement as GET /v1/funding-rates serves it. */
export const EXPORT_COLUMNS = [
  "exchange",
  "market",
  "symbol",
  "time",
  "funding_rate",
  "funding_interval_hours",
  "apr",
  "source",
] as const satisfies readonly (keyof FundingSettlement)[];

/** Writes one export's bytes batch by batch: `start` once, `batch` per page read, `end` once. */
export interface ExportWriter {
  start(): Uint8Array;
  batch(rows: readonly FundingSettlement[]): Uint8Array;
  end(): Uint8Array;
}
