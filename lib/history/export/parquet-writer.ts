import { ByteWriter, ParquetWriter } from "hyparquet-writer";
import type { SchemaElement } from "hyparquet";
import type { FundingSettlement } from "@/lib/market/model/funding-settlement";
import type { ExportWriter } from "./export-format";

const REQUIRED = "REQUIRED" as const;
const OPTIONAL = "OPTIONAL" as const;

/** The columns of EXPORT_COLUMNS as Parquet types them: times as UTC instants in milliseconds, rates as doubles. */
export const PARQUET_SCHEMA: SchemaElement[] = [
  { name: "root", num_children: 8 },
  { name: "exchange", type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: REQUIRED },
  { name: "market", type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: REQUIRED },
  { name: "symbol", type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: REQUIRED },
  {
    name: "time",
    type: "INT64",
    converted_type: "TIMESTAMP_MILLIS",
    logical_type: { type: "TIMESTAMP", isAdjustedToUTC: true, unit: "MILLIS" },
    repetition_type: REQUIRED,
  },
  { name: "funding_rate", type: "DOUBLE", repetition_type: REQUIRED },
  { name: "funding_interval_hours", type: "DOUBLE", repetition_type: OPTIONAL },
  { name: "apr", type: "DOUBLE", repetition_type: OPTIONAL },
  { name: "source", type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: REQUIRED },
];

/**
 * A Parquet file written as it goes: one row group per batch, each handed on as soon as it is
 * encoded. hyparquet-writer's writer keeps its file offset (which the footer's column chunk
 * offsets need) apart from its buffer, so the buffer is emptied after each row group and only
 * the footer's metadata (a few hundred bytes per row group) stays until the end.
 */
export function parquetWriter(): ExportWriter {
  // `flush`, which ParquetWriter calls after each row group when the writer has one, as hyparquet-writer's file writer does.
  const bytes: ByteWriter & { flush?: () => void } = new ByteWriter();
  let taken: Uint8Array[] = [];
  // Called by ParquetWriter after each row group and by finish(): moves what was written out of the buffer.
  const take = () => {
    taken.push(bytes.getBytes().slice());
    bytes.index = 0;
  };
  bytes.flush = take;
  bytes.finish = take;
  const drain = () => {
    const parts = taken;
    taken = [];
    return concat(parts);
  };
  let writer: ParquetWriter | undefined;
  return {
    start: () => {
      writer = new ParquetWriter({ writer: bytes, schema: PARQUET_SCHEMA, codec: "SNAPPY", createdBy: "funding-data-service export" });
      take();
      return drain();
    },
    batch: (rows) => {
      if (rows.length === 0) return new Uint8Array(0);
      // A single row group per batch, whatever its size: the batch already bounds what is held.
      void writer!.write({ columnData: columnsOf(rows), rowGroupSize: rows.length });
      return drain();
    },
    end: () => {
      void writer!.finish();
      return drain();
    },
  };
}

function columnsOf(rows: readonly FundingSettlement[]) {
  return [
    { name: "exchange", data: rows.map((r) => r.exchange) },
    { name: "market", data: rows.map((r) => r.market) },
    { name: "symbol", data: rows.map((r) => r.symbol) },
    { name: "time", data: rows.map((r) => new Date(r.time)) },
    { name: "funding_rate", data: Float64Array.from(rows, (r) => r.funding_rate) },
    { name: "funding_interval_hours", data: rows.map((r) => r.funding_interval_hours) },
    { name: "apr", data: rows.map((r) => r.apr) },
    { name: "source", data: rows.map((r) => r.source) },
  ];
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
