import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { describe, expect, it } from "vitest";
import type { FundingSettlement } from "@/lib/market/model/funding-settlement";
import { csvField, csvWriter } from "./csv-writer";
import type { ExportWriter } from "./export-format";
import { parquetWriter } from "./parquet-writer";

const row = (i: number, over: Partial<FundingSettlement> = {}): FundingSettlement => ({
  exchange: "binance",
  market: "BTC/USDT:USDT",
  symbol: "BTC",
  time: new Date(Date.UTC(2026, 10, 1) + i * 8 * 3_600_000).toISOString(),
  funding_rate: 0.0001 * (i % 7) - 0.00025,
  funding_interval_hours: i % 5 === 0 ? null : 8,
  apr: i % 5 === 0 ? null : 10.95 * (i % 7),
  source: "observed",
  ...over,
});

/** Every byte a writer gives for `batches`, joined as a client receives them. */
function write(writer: ExportWriter, batches: FundingSettlement[][]): ArrayBuffer {
  const parts = [writer.start(), ...batches.map((b) => writer.batch(b)), writer.end()];
  const file = new ArrayBuffer(parts.reduce((n, p) => n + p.length, 0));
  const out = new Uint8Array(file);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return file;
}

const asSettlement = (r: Record<string, unknown>): FundingSettlement => ({
  ...(r as unknown as FundingSettlement),
  time: (r.time as Date).toISOString(),
});

describe("the CSV writer", () => {
  it("writes a header, then one CRLF-ended record per settlement, nulls as empty fields", () => {
    const text = new TextDecoder().decode(write(csvWriter(), [[row(0), row(1)], [row(2)]]));
    const lines = text.split("\r\n");
    expect(lines[0]).toBe("exchange,market,symbol,time,funding_rate,funding_interval_hours,apr,source");
    expect(lines[1]).toBe(`binance,BTC/USDT:USDT,BTC,2026-11-01T00:00:00.000Z,${row(0).funding_rate},,,observed`);
    expect(lines[2]).toBe(`binance,BTC/USDT:USDT,BTC,2026-11-01T08:00:00.000Z,${row(1).funding_rate},8,${row(1).apr},observed`);
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe("");
  });

  it("quotes fields holding a comma, a quote or a line break, doubling the quotes (RFC 4180)", () => {
    expect(csvField('a"b')).toBe('"a""b"');
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField("a\nb")).toBe('"a\nb"');
    expect(csvField("a\rb")).toBe('"a\rb"');
    expect(csvField("BTC/USDT:USDT")).toBe("BTC/USDT:USDT");
    expect(csvField(-1.5e-7)).toBe("-1.5e-7");
    expect(Number(csvField(0.1 + 0.2))).toBe(0.1 + 0.2);
  });
});

describe("the Parquet writer", () => {
  it("writes a file hyparquet reads back row for row, one row group per batch", async () => {
    const rows = Array.from({ length: 2_500 }, (_, i) => row(i, i % 3 === 0 ? { exchange: "okx", market: "BTC/USDT:USDT", source: "sandbox" } : {}));
    const batches = [rows.slice(0, 1_000), rows.slice(1_000, 2_000), rows.slice(2_000)];
    const file = write(parquetWriter(), batches);
    const metadata = parquetMetadata(file);
    expect(metadata.row_groups.map((g) => Number(g.num_rows))).toEqual([1_000, 1_000, 500]);
    const read = await parquetReadObjects({ file });
    expect(read.map(asSettlement)).toEqual(rows);
  });

  it("hands each row group on as it is written, and keeps no batch once handed on", () => {
    const writer = parquetWriter();
    const head = writer.start();
    expect(new TextDecoder().decode(head)).toBe("PAR1");
    const first = writer.batch(Array.from({ length: 1_000 }, (_, i) => row(i)));
    const second = writer.batch(Array.from({ length: 1_000 }, (_, i) => row(i + 1_000)));
    // Each batch's bytes are its own row group's, not everything written so far.
    expect(first.length).toBeGreaterThan(1_000);
    expect(second.length).toBeLessThan(first.length * 1.5);
    const tail = writer.end();
    expect(new TextDecoder().decode(tail.slice(-4))).toBe("PAR1");
  });

  it("writes a valid empty file when there is nothing to export", async () => {
    const file = write(parquetWriter(), []);
    expect(Number(parquetMetadata(file).num_rows)).toBe(0);
    expect(await parquetReadObjects({ file })).toEqual([]);
  });
});
