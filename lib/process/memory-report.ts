// Where a long-running process's memory goes, as one log line on SIGUSR2 (`kill -USR2 <pid>`), so an
// operator (and `npm run bench:footprint`) can see it without a debugger and nothing of it is served
// over HTTP. Resident size as Linux counts it is in /proc; this adds what only the process knows:
// the V8 heap, memory held outside it (Buffers, ArrayBuffers, WebAssembly memories) and the size of
// the embedded database's WebAssembly heap.
import v8 from "node:v8";
import { logger } from "@/lib/observability/logger";

export interface MemoryParts {
  rss: number;
  /** V8's heap as reserved from the system, and the part of it live objects use. */
  heapTotal: number;
  heapUsed: number;
  /** Compiled JavaScript (V8's code space); WebAssembly code is not in it. */
  codeSpace: number;
  /** Memory V8 tracks outside its heap: ArrayBuffers, Buffers and WebAssembly memories. */
  external: number;
  arrayBuffers: number;
  /** The embedded database's WebAssembly memory (part of `external`); absent with PostgreSQL. */
  databaseWasm?: number;
}

const FIELDS = [
  ["rss", "rss"],
  ["heapTotal", "heap_total"],
  ["heapUsed", "heap_used"],
  ["codeSpace", "code_space"],
  ["external", "external"],
  ["arrayBuffers", "array_buffers"],
  ["databaseWasm", "database_wasm"],
] as const satisfies readonly (readonly [keyof MemoryParts, string])[];

export const MEMORY_REPORT_PREFIX = "[memory]";

export function memoryParts(databaseWasm?: number): MemoryParts {
  const usage = process.memoryUsage();
  const codeSpace = v8.getHeapSpaceStatistics().find((space) => space.space_name === "code_space")?.space_size ?? 0;
  return {
    rss: usage.rss,
    heapTotal: usage.heapTotal,
    heapUsed: usage.heapUsed,
    codeSpace,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
    ...(databaseWasm !== undefined && { databaseWasm }),
  };
}

/** `[memory] rss=123456 heap_total=… …` in bytes: exact for tools, and short. */
export function formatMemoryReport(parts: MemoryParts): string {
  const values = FIELDS.flatMap(([key, name]) => (parts[key] === undefined ? [] : [`${name}=${parts[key]}`]));
  return `${MEMORY_REPORT_PREFIX} ${values.join(" ")}`;
}

/**
 * The parts of a line `formatMemoryReport` wrote, or null when `line` is not one. The report may
 * stand inside a JSON log line (its `msg`), so it ends at the first quote.
 */
export function parseMemoryReport(line: string): MemoryParts | null {
  const at = line.indexOf(`${MEMORY_REPORT_PREFIX} `);
  if (at < 0) return null;
  const values = new Map(
    line
      .slice(at + MEMORY_REPORT_PREFIX.length + 1)
      .split('"')[0]!
      .trim()
      .split(/\s+/)
      .map((pair) => pair.split("=") as [string, string]),
  );
  const parts: Partial<MemoryParts> = {};
  for (const [key, name] of FIELDS) {
    const value = values.get(name);
    if (value === undefined) continue;
    if (!/^\d+$/.test(value)) return null;
    parts[key] = Number(value);
  }
  const required = FIELDS.filter(([key]) => key !== "databaseWasm");
  return required.every(([key]) => parts[key] !== undefined) ? (parts as MemoryParts) : null;
}

/** What of `process` the report uses; tests pass a fake. */
export interface SignalTarget {
  on(event: "SIGUSR2", listener: () => void): unknown;
}

/**
 * Logs the report on every SIGUSR2 (its `msg`). Windows has no SIGUSR2, so nothing is installed there.
 */
export function reportMemoryOnSignal(
  databaseWasm: () => number | undefined,
  target: SignalTarget = process,
  write: (line: string) => void = (line) => logger("process").info(line),
  platform: NodeJS.Platform = process.platform,
): void {
  if (platform === "win32") return;
  target.on("SIGUSR2", () => write(formatMemoryReport(memoryParts(databaseWasm()))));
}
