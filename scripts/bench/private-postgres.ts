// A private PostgreSQL on loopback, started as .ci/run starts CI's: initdb into a temporary directory
// (as the postgres user when we run as root), pg_ctl with its own port and socket directory, default
// settings otherwise. Stopped by its own data directory; no system service is touched.
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/tests/support/free-port";

export interface PrivatePostgres {
  url: string;
  dataDir: string;
  stop(): void;
}

function pgBin(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(path.join(root, v, "bin/initdb"))) : [];
  const newest = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
  if (!newest) throw new Error("PostgreSQL is not installed (apt-get install postgresql), or pass DATABASE_URL");
  return path.join(root, newest, "bin");
}

export async function startPrivatePostgres(prefix: string): Promise<PrivatePostgres> {
  const bin = pgBin();
  const work = mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  const dataDir = path.join(work, "pg");
  const port = await freePort();
  // initdb refuses to run as root: run PostgreSQL as `postgres`, as .ci/run does.
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", path.join(bin, tool), ...args], { stdio: "pipe" })
      : execFileSync(path.join(bin, tool), args, { stdio: "pipe" });
  if (asRoot) chownSync(work, Number(execFileSync("id", ["-u", "postgres"]).toString().trim()), 0);
  const stop = () => {
    try {
      if (existsSync(path.join(dataDir, "postmaster.pid"))) run("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "stop"]);
    } catch (error) {
      process.stderr.write(`stopping the private PostgreSQL failed: ${(error as Error).message}\n`);
    }
    rmSync(work, { recursive: true, force: true });
  };
  try {
    run("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust"]);
    run("pg_ctl", ["-D", dataDir, "-o", `-p ${port} -k /tmp -c listen_addresses=localhost`, "-w", "-l", path.join(work, "pg.log"), "start"]);
  } catch (error) {
    stop();
    throw error;
  }
  return { url: `postgresql://postgres@localhost:${port}/postgres`, dataDir, stop };
}
