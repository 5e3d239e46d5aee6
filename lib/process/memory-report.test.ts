import { describe, expect, it } from "vitest";
import { formatMemoryReport, memoryParts, parseMemoryReport, reportMemoryOnSignal, type MemoryParts } from "./memory-report";

const parts: MemoryParts = {
  rss: 200_000_000,
  heapTotal: 60_000_000,
  heapUsed: 40_000_000,
  codeSpace: 3_000_000,
  external: 150_000_000,
  arrayBuffers: 10_000_000,
  databaseWasm: 134_217_728,
};

describe("memory report", () => {
  it("writes one line of bytes that reads back as the same parts", () => {
    const line = formatMemoryReport(parts);
    expect(line).toBe(
      "[memory] rss=200000000 heap_total=60000000 heap_used=40000000 code_space=3000000 external=150000000 array_buffers=10000000 database_wasm=134217728",
    );
    expect(parseMemoryReport(`2026-11-24 ${line}`)).toEqual(parts);
    // As the logger writes it: the report is the line's `msg`.
    expect(parseMemoryReport(JSON.stringify({ level: "info", time: "2026-11-24T00:00:00.000Z", msg: line }))).toEqual(parts);
  });

  it("leaves the database's heap out with PostgreSQL, and still reads back", () => {
    const { databaseWasm: _, ...withoutDatabase } = parts;
    const line = formatMemoryReport(withoutDatabase);
    expect(line).not.toContain("database_wasm");
    expect(parseMemoryReport(line)).toEqual(withoutDatabase);
  });

  it("reads nothing from other lines or from a damaged report", () => {
    expect(parseMemoryReport("Funding Opportunity Data Service ready on http://localhost:3000")).toBeNull();
    expect(parseMemoryReport("[memory] rss=12 heap_total=3")).toBeNull();
    expect(parseMemoryReport(formatMemoryReport(parts).replace("rss=200000000", "rss=2e8"))).toBeNull();
  });

  it("measures this process", () => {
    const measured = memoryParts(42);
    expect(measured.rss).toBeGreaterThan(measured.heapUsed);
    expect(measured.heapTotal).toBeGreaterThanOrEqual(measured.heapUsed);
    expect(measured.databaseWasm).toBe(42);
    expect(memoryParts()).not.toHaveProperty("databaseWasm");
  });

  it("reports on SIGUSR2, except on Windows, which has no such signal", () => {
    const listeners: (() => void)[] = [];
    const target = { on: (_event: "SIGUSR2", listener: () => void) => listeners.push(listener) };
    const lines: string[] = [];
    reportMemoryOnSignal(() => 7, target, (line) => lines.push(line), "linux");
    listeners[0]!();
    expect(parseMemoryReport(lines[0]!)?.databaseWasm).toBe(7);

    reportMemoryOnSignal(() => 7, target, (line) => lines.push(line), "win32");
    expect(listeners).toHaveLength(1);
  });
});
