import type { FundingSettlement } from "@/lib/market/model/funding-settlement";
import { EXPORT_COLUMNS, type ExportWriter } from "./export-format";

const encoder = new TextEncoder();
// RFC 4180: records end with CRLF; a field holding a comma, a quote or a line break is quoted, its quotes doubled.
const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV field: null as an empty field, numbers as JavaScript writes them (the shortest text that reads back the same double). */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  const text = String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRecord(fields: readonly (string | number | null)[]): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}

/** CSV as RFC 4180 writes it, with a header record naming the columns. */
export function csvWriter(): ExportWriter {
  return {
    start: () => encoder.encode(csvRecord(EXPORT_COLUMNS)),
    batch: (rows: readonly FundingSettlement[]) => {
      let text = "";
      for (const row of rows) text += csvRecord(EXPORT_COLUMNS.map((column) => row[column]));
      return encoder.encode(text);
    },
    end: () => new Uint8Array(0),
  };
}
