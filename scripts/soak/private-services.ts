// A private PostgreSQL and Redis on loopback for the soak, started exactly as .ci/run starts CI's:
// PostgreSQL as scripts/bench/private-postgres.ts starts it, redis-server with persistence off.
// Both are stopped by their own data directory and pid file; no system service is touched.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/tests/support/free-port";
import { startPrivatePostgres } from "../bench/private-postgres";

export interface PrivateServices {
  databaseUrl: string;
  redisUrl: string;
  stop(): void;
}

export async function startPrivateServices(): Promise<PrivateServices> {
  // A pool per server process plus the soak's own: PostgreSQL's default 100 connections are enough.
  const postgres = await startPrivatePostgres("fods-soak");
  const work = mkdtempSync(path.join(os.tmpdir(), "fods-soak-redis-"));
  const redisPid = path.join(work, "redis.pid");
  const redisPort = await freePort();
  const stop = () => {
    postgres.stop();
    try {
      if (existsSync(redisPid)) process.kill(Number(readFileSync(redisPid, "utf8").trim()), "SIGTERM");
    } catch {
      // Already gone.
    }
    rmSync(work, { recursive: true, force: true });
  };
  try {
    execFileSync("redis-server", [
      "--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
      "--daemonize", "yes", "--pidfile", redisPid, "--logfile", path.join(work, "redis.log"),
    ]);
    for (let i = 0; i < 50 && !existsSync(redisPid); i++) await new Promise((r) => setTimeout(r, 100));
  } catch (error) {
    stop();
    throw error;
  }
  return { databaseUrl: postgres.url, redisUrl: `redis://127.0.0.1:${redisPort}`, stop };
}
