import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensurePrivateDir } from "@/lib/config/private-dir";

/**
 * PGlite is Postgres in one process: two processes opening the same data directory would corrupt
 * it. A lock file records the owner; a second process fails fast with a message naming it, and a
 * lock left by a process that died is taken over.
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly ownerPid: number,
    ownerDescription: string,
  ) {
    super(
      `The embedded database in ${dir} is in use by process ${ownerPid} (${ownerDescription}). ` +
        "PGlite allows one process at a time: stop that process first, use another DATA_DIR, " +
        "or set DATABASE_URL to share a PostgreSQL database between processes.",
    );
    this.name = "DataDirLockedError";
  }
}

interface LockOwner {
  pid: number;
  hostname: string;
  startedAt: string;
  command: string;
}

const LOCK_FILE = "embedded-db.lock";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readOwner(lockPath: string): LockOwner | undefined {
  try {
    return JSON.parse(fs.readFileSync(lockPath, "utf8")) as LockOwner;
  } catch {
    return undefined;
  }
}

/** Takes the lock on `dir` for this process, or throws DataDirLockedError. Idempotent. */
export function acquireDataDirLock(dir: string): void {
  ensurePrivateDir(dir);
  const lockPath = path.join(dir, LOCK_FILE);
  const me: LockOwner = {
    pid: process.pid,
    hostname: os.hostname(),
    startedAt: new Date().toISOString(),
    command: process.argv.slice(1).join(" ").slice(0, 200),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(lockPath, JSON.stringify(me), { flag: "wx", mode: 0o600 });
      process.once("exit", () => releaseDataDirLock(dir));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = readOwner(lockPath);
    if (owner?.pid === process.pid) return;
    const sameHost = owner?.hostname === me.hostname;
    if (owner && (!sameHost || isAlive(owner.pid))) {
      const where = sameHost ? "" : ` on host ${owner.hostname}`;
      throw new DataDirLockedError(dir, owner.pid, `${owner.command || "unknown command"}${where}, since ${owner.startedAt}`);
    }
    // The owner died without cleaning up (or the file is half-written garbage): take over.
    fs.rmSync(lockPath, { force: true });
  }
  throw new Error(`Could not take the lock on ${lockPath}; another process keeps taking it.`);
}

/** Removes the lock if this process holds it. */
export function releaseDataDirLock(dir: string): void {
  const lockPath = path.join(dir, LOCK_FILE);
  if (readOwner(lockPath)?.pid === process.pid) fs.rmSync(lockPath, { force: true });
}
