import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireDataDirLock, releaseDataDirLock } from "@/lib/db/data-dir-lock";
import { ensureAuthSecret } from "./auth-secret";
import { ensurePrivateDir, tightenTree } from "./private-dir";

const roots: string[] = [];
function tempRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "fods-private-"));
  roots.push(root);
  return root;
}
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe("the embedded data directory", () => {
  it("is created owner-only, and so is the generated NEXTAUTH_SECRET", () => {
    const dir = path.join(tempRoot(), "data", "nested");
    const env: NodeJS.ProcessEnv = { NODE_ENV: "test" };
    const secret = ensureAuthSecret(dir, env);
    expect(secret).toMatch(/^[\w-]{43}$/);
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(path.join(dir, "nextauth-secret"))).toBe(0o600);
  });

  it("tightens an existing directory, its files and the secret at start", () => {
    const dir = path.join(tempRoot(), "data");
    fs.mkdirSync(path.join(dir, "pglite", "base"), { recursive: true, mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    fs.writeFileSync(path.join(dir, "pglite", "base", "1234"), "rows", { mode: 0o666 });
    fs.chmodSync(path.join(dir, "pglite", "base", "1234"), 0o666);
    fs.writeFileSync(path.join(dir, "nextauth-secret"), "old-secret", { mode: 0o644 });
    fs.chmodSync(path.join(dir, "nextauth-secret"), 0o644);

    ensurePrivateDir(dir);
    expect(modeOf(dir)).toBe(0o700);
    expect(ensureAuthSecret(dir, { NODE_ENV: "test" })).toBe("old-secret");
    expect(modeOf(path.join(dir, "nextauth-secret"))).toBe(0o600);
    expect(tightenTree(dir)).toBe(3); // pglite, pglite/base, the file
    expect(modeOf(path.join(dir, "pglite"))).toBe(0o700);
    expect(modeOf(path.join(dir, "pglite", "base", "1234"))).toBe(0o600);
    expect(tightenTree(dir), "nothing left to change").toBe(0);
  });

  it("is owner-only when the lock creates it, and the lock file too", () => {
    const dir = path.join(tempRoot(), "locked");
    acquireDataDirLock(dir);
    try {
      expect(modeOf(dir)).toBe(0o700);
      expect(modeOf(path.join(dir, "embedded-db.lock"))).toBe(0o600);
    } finally {
      releaseDataDirLock(dir);
    }
  });
});
