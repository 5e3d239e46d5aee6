// Postgres settings of the embedded database. PGlite runs Postgres inside this process's
// WebAssembly heap, which only ever grows: every megabyte a setting lets Postgres allocate is a
// megabyte of the server's resident memory for the rest of its life. initdb sizes the cluster for a
// machine of its own (shared_buffers = 128 MB, room for 100 connections), most of which one embedded
// connection never uses, so these are passed at every start (they override postgresql.conf, which
// existing data directories keep as it is). Figures: docs/operations.md, "Memory".
import type { PGliteOptions } from "@electric-sql/pglite";

/**
 * - shared_buffers 16 MB (initdb: 128 MB): Postgres's page cache, allocated and touched at start.
 *   The data files sit in the operating system's page cache anyway (PGlite reads them through
 *   Node's fs), so a miss here costs a copy, not a disk read; bench:market shows the queries stay
 *   within their targets.
 * - max_connections 8 (initdb: 100): PGlite has exactly one backend; the lock and process tables
 *   are sized by this. Not 1: Postgres reserves some of them for its own processes.
 * - maintenance_work_mem 16 MB (default 64 MB): what a migration's CREATE INDEX may take; as
 *   the WebAssembly heap never shrinks, a large one would stay resident after the migration.
 */
export const PGLITE_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: "16MB",
  max_connections: "8",
  maintenance_work_mem: "16MB",
};

/** PGlite's own start parameters (single-user mode and the rest), then ours. */
export function pgliteStartParams(defaults: readonly string[]): string[] {
  return [...defaults, ...Object.entries(PGLITE_SETTINGS).flatMap(([name, value]) => ["-c", `${name}=${value}`])];
}

export function pgliteOptions(defaults: readonly string[]): PGliteOptions {
  return { startParams: pgliteStartParams(defaults) };
}
