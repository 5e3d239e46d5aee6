// A private PostgreSQL and Redis on loopback for the soak, started exactly as .ci/run starts CI's:
// initdb into a temporary directory (as the postgres user when we run as root), pg_ctl with its own
// port and socket directory, redis-server with persistence off. Both are stopped by their own data
// directory and pid file; no system service is touched.
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/tests/support/free-port";

export interface PrivateServices {
  databaseUrl: string;
  redisUrl: string;
  stop(): void;
}

function pgBin(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(path.join(root, v, "bin/initdb"))) : [];
  const newest = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
  if (!newest) throw new Error("PostgreSQL is not installed (apt-get install postgresql), or pass DATABASE_URL and REDIS_URL");
  return path.join(root, newest, "bin");
}

export async function startPrivateServices(): Promise<PrivateServices> {
  const bin = pgBin();
  const work = mkdtempSync(path.join(os.tmpdir(), "fods-soak-"));
  const pgData = path.join(work, "pg");
  const redisPid = path.join(work, "redis.pid");
  const [pgPort, redisPort] = [await freePort(), await freePort()];
  // initdb refuses to run as root: run PostgreSQL as `postgres`, as .ci/run does.
  const asRoot = process.getuid?.() === 0;
  const pg = (tool: string, args: string[]) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", path.join(bin, tool), ...args], { stdio: "pipe" })
      : execFileSync(path.join(bin, tool), args, { stdio: "pipe" });
  if (asRoot) chownSync(work, Number(execFileSync("id", ["-u", "postgres"]).toString().trim()), 0);
  const stop = () => {
    try {
      if (existsSync(path.join(pgData, "postmaster.pid"))) pg("pg_ctl", ["-D", pgData, "-m", "fast", "-w", "stop"]);
    } catch (error) {
      console.error("stopping the private PostgreSQL failed:", (error as Error).message);
    }
    try {
      if (existsSync(redisPid)) process.kill(Number(readFileSync(redisPid, "utf8").trim()), "SIGTERM");
    } catch {
      // Already gone.
    }
    rmSync(work, { recursive: true, force: true });
  };
  try {
    pg("initdb", ["-D", pgData, "-U", "postgres", "--auth=trust"]);
    // A pool per server process plus the soak's own: the default 100 connections are enough.
    pg("pg_ctl", ["-D", pgData, "-o", `-p ${pgPort} -k /tmp -c listen_addresses=localhost`, "-w", "-l", path.join(work, "pg.log"), "start"]);
    execFileSync("redis-server", [
      "--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
      "--daemonize", "yes", "--pidfile", redisPid, "--logfile", path.join(work, "redis.log"),
    ]);
    for (let i = 0; i < 50 && !existsSync(redisPid); i++) await new Promise((r) => setTimeout(r, 100));
  } catch (error) {
    stop();
    throw error;
  }
  return { databaseUrl: `postgresql://postgres@localhost:${pgPort}/postgres`, redisUrl: `redis://127.0.0.1:${redisPort}`, stop };
}
