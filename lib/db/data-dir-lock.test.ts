import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirLockedError, releaseDataDirLock } from "./data-dir-lock";

const dirs: string[] = [];
function tempDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "fods-lock-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    releaseDataDirLock(dir);
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A separate process that holds the lock until told to exit (stdin closes). */
function holdLockInChild(dir: string): Promise<{ pid: number; stop: () => Promise<void> }> {
  const script = `
    const fs = require("node:fs");
    fs.writeFileSync(${JSON.stringify(path.join(dir, "embedded-db.lock"))},
      JSON.stringify({ pid: process.pid, hostname: require("node:os").hostname(), startedAt: new Date().toISOString(), command: "holder" }), { flag: "wx" });
    process.stdout.write("locked\\n");
    process.stdin.on("end", () => process.exit(0));
    process.stdin.resume();`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["pipe", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.stdout.once("data", () =>
      resolve({
        pid: child.pid!,
        stop: () =>
          new Promise<void>((done) => {
            child.once("exit", () => done());
            child.stdin.end();
          }),
      }),
    );
  });
}

describe("the embedded data directory lock", () => {
  it("is taken by the first process and is re-entrant within it", () => {
    const dir = tempDir();
    acquireDataDirLock(dir);
    acquireDataDirLock(dir);
    const owner = JSON.parse(readFileSync(path.join(dir, "embedded-db.lock"), "utf8"));
    expect(owner.pid).toBe(process.pid);
  });

  it("refuses a second process with an error naming the owner's pid", async () => {
    const dir = tempDir();
    const holder = await holdLockInChild(dir);
    try {
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
      expect(() => acquireDataDirLock(dir)).toThrow(new RegExp(`in use by process ${holder.pid}`));
    } finally {
      await holder.stop();
    }
  });

  it("takes over a lock left by a process that died", async () => {
    const dir = tempDir();
    const holder = await holdLockInChild(dir);
    await holder.stop(); // exits without removing its lock file, like a killed server
    expect(existsSync(path.join(dir, "embedded-db.lock"))).toBe(true);
    acquireDataDirLock(dir);
    expect(JSON.parse(readFileSync(path.join(dir, "embedded-db.lock"), "utf8")).pid).toBe(process.pid);
  });

  it("takes over a garbled lock file", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "embedded-db.lock"), "{not json");
    acquireDataDirLock(dir);
    expect(JSON.parse(readFileSync(path.join(dir, "embedded-db.lock"), "utf8")).pid).toBe(process.pid);
  });

  it("is released so the directory can be taken again", () => {
    const dir = tempDir();
    acquireDataDirLock(dir);
    releaseDataDirLock(dir);
    expect(existsSync(path.join(dir, "embedded-db.lock"))).toBe(false);
  });
});
