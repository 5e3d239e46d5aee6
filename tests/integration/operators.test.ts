import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantOperator, OperatorChangeRefused, revokeOperator } from "@/lib/accounts/operators";
import { acquireDataDirLock, releaseDataDirLock } from "@/lib/db/data-dir-lock";
import { openDatabase, type OpenDatabase } from "@/lib/db/open-database";
import { createServerDatabase } from "@/tests/support/server-database";
import { createTestDatabase } from "@/tests/support/test-database";

const ROOT = path.resolve(import.meta.dirname, "../..");

let database: OpenDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

async function account(email: string, verified: boolean) {
  return database.db.user.create({ data: { email, passwordHash: "not-a-real-hash", emailVerifiedAt: verified ? new Date() : null } });
}

describe("grantOperator and revokeOperator", () => {
  it("grant a verified address (in any case), record it in the audit trail, and revoke it again", async () => {
    const user = await account("ops@example.com", true);
    expect(await grantOperator(database.db, " OPS@Example.com ")).toEqual({ email: "ops@example.com", changed: true });
    expect((await database.db.user.findUniqueOrThrow({ where: { id: user.id } })).isOperator).toBe(true);
    expect(await grantOperator(database.db, "ops@example.com")).toEqual({ email: "ops@example.com", changed: false });
    expect(await revokeOperator(database.db, "ops@example.com")).toEqual({ email: "ops@example.com", changed: true });
    expect((await database.db.user.findUniqueOrThrow({ where: { id: user.id } })).isOperator).toBe(false);
    const events = await database.db.auditEvent.findMany({ where: { subjectId: user.id }, orderBy: { at: "asc" } });
    expect(events).toEqual([
      expect.objectContaining({ action: "operator.granted", actorId: null, target: "ops@example.com", userAgent: "npm run admin" }),
      expect.objectContaining({ action: "operator.revoked", actorId: null, target: "ops@example.com", userAgent: "npm run admin" }),
    ]);
  });

  it("refuse an unknown address and an unverified one, with a message saying what to do", async () => {
    await expect(grantOperator(database.db, "ghost@example.com")).rejects.toThrow(new OperatorChangeRefused("No account has the e-mail address ghost@example.com. The person must sign up first."));
    await expect(revokeOperator(database.db, "ghost@example.com")).rejects.toBeInstanceOf(OperatorChangeRefused);
    await expect(grantOperator(database.db, "not an address")).rejects.toThrow(/is not an e-mail address/);
    const unverified = await account("claimed@example.com", false);
    await expect(grantOperator(database.db, "claimed@example.com")).rejects.toThrow(/has not verified its e-mail address, so it cannot be an operator/);
    expect((await database.db.user.findUniqueOrThrow({ where: { id: unverified.id } })).isOperator).toBe(false);
    expect(await database.db.auditEvent.count({ where: { subjectId: unverified.id } })).toBe(0);
  });
});

function runAdmin(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const { DATABASE_URL: _ignored, ...inherited } = process.env;
    const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/admin.ts"), ...args], {
      cwd: ROOT,
      env: { ...inherited, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("npm run admin", () => {
  // The script on the configured database: a PGlite data directory by default, or DATABASE_URL (CI's second pass).
  const serverUrl = process.env.DATABASE_URL;
  let dataDir: string;
  let env: Record<string, string>;
  let open: () => Promise<OpenDatabase>;
  let closeServerDb = async () => {};

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "fods-admin-"));
    if (serverUrl) {
      const server = await createServerDatabase(serverUrl);
      env = { DATABASE_URL: server.url };
      open = async () => ({ ...server, close: async () => {} });
      closeServerDb = () => server.close();
    } else {
      env = { DATA_DIR: dataDir };
      open = () => openDatabase({ driver: "pglite", dataDir });
    }
    const db = await open();
    await db.db.user.create({ data: { email: "cli-op@example.com", passwordHash: "x", emailVerifiedAt: new Date() } });
    await db.db.user.create({ data: { email: "cli-unverified@example.com", passwordHash: "x" } });
    await db.close();
  });
  afterAll(async () => {
    await closeServerDb();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("grants and revokes, and refuses unknown and unverified addresses with a clear message and a failing status", async () => {
    // A misspelt command is refused before the database is opened, so it runs beside the grant
    // rather than waiting for the data directory's lock.
    const [granted, usage] = await Promise.all([runAdmin(["grant", "CLI-OP@example.com"], env), runAdmin(["promote", "cli-op@example.com"], env)]);
    expect(granted).toMatchObject({ code: 0, stdout: "cli-op@example.com is an operator now (recorded in the audit trail).\n" });
    const unknown = await runAdmin(["grant", "nobody@example.com"], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No account has the e-mail address nobody@example.com");
    const unverified = await runAdmin(["grant", "cli-unverified@example.com"], env);
    expect(unverified.code).toBe(1);
    expect(unverified.stderr).toContain("cli-unverified@example.com has not verified its e-mail address");
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Usage: npm run admin -- grant <email>");

    const db = await open();
    try {
      const users = await db.db.user.findMany({ orderBy: { email: "asc" }, select: { email: true, isOperator: true } });
      expect(users).toEqual([
        { email: "cli-op@example.com", isOperator: true },
        { email: "cli-unverified@example.com", isOperator: false },
      ]);
      expect(await db.db.auditEvent.findMany({ select: { action: true, target: true } })).toEqual([{ action: "operator.granted", target: "cli-op@example.com" }]);
    } finally {
      await db.close();
    }
    const revoked = await runAdmin(["revoke", "cli-op@example.com"], env);
    expect(revoked).toMatchObject({ code: 0, stdout: "cli-op@example.com is not an operator now (recorded in the audit trail).\n" });
    // Five runs of the script, each a process that loads the sources through tsx and opens the
    // database: ~9 s each at a load of 7, so the suite's 60 s went at the loads CI sees.
  }, 240_000);

  it.skipIf(Boolean(serverUrl))("fails at once, naming the owner, while a server holds the embedded database", async () => {
    acquireDataDirLock(dataDir); // as a running server does
    try {
      const refused = await runAdmin(["grant", "cli-op@example.com"], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`is in use by process ${process.pid}`);
      expect(refused.stderr).toContain("stop that process first");
    } finally {
      releaseDataDirLock(dataDir);
    }
  });
});
