import { processSingleton } from "@/lib/singleton";
import type { PrismaClient } from "./generated/client";

/** A node-postgres pool's use now. */
export interface PoolStats {
  /** Which pool: `prisma` (the ORM's) or `direct` (lib/db/direct-sql.ts). */
  name: string;
  /** Clients open, idle among them, and queries waiting for one. */
  total: number;
  idle: number;
  waiting: number;
}

/** What GET /metrics reports of a database: PostgreSQL's pools, or the embedded database's memory. */
export interface DatabaseStats {
  pools: PoolStats[];
  /** Bytes of the embedded database's WebAssembly memory (PGlite has no pool: one query at a time). */
  wasmMemoryBytes?: number;
}

/** Like directSql, once per process (lib/singleton.ts): the client's opener registers how to read them. */
const sources = () => processSingleton("database-stats", () => new WeakMap<PrismaClient, () => DatabaseStats>());

export function registerDatabaseStats(db: PrismaClient, read: () => DatabaseStats): void {
  sources().set(db, read);
}

/** The stats of a client openDatabase opened; undefined for any other. */
export function databaseStats(db: PrismaClient): DatabaseStats | undefined {
  return sources().get(db)?.();
}

/** A node-postgres pool's counts under `name`. */
export function poolStats(name: string, pool: { totalCount: number; idleCount: number; waitingCount: number }): PoolStats {
  return { name, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}
