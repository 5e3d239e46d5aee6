// npm run db:backup / db:restore (lib/db/backup.ts): an embedded database with accounts, keys,
// positions and funding history survives the round trip into a new DATA_DIR, and the restored copy
// serves: its key verifies through the real /v1 app. Embedded only: PostgreSQL uses pg_dump.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { createAppServices } from "@/lib/app-services";
import { backupEmbeddedDatabase, BackupError, restoreEmbeddedDatabase } from "@/lib/db/backup";
import { DataDirLockedError } from "@/lib/db/data-dir-lock";
import { openDatabase, type OpenDatabase } from "@/lib/db/open-database";
import { createKeyFor, createUser, liveOpportunity, seedLiveOpportunities } from "@/tests/support/api-fixtures";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "fods-backup-test-"));
const opened: OpenDatabase[] = [];
afterAll(async () => {
  for (const d of opened) await d.close().catch(() => {});
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function open(dataDir: string) {
  fs.mkdirSync(dataDir, { recursive: true }); // as the server's data-directory lock does
  const database = await openDatabase({ driver: "pglite", dataDir });
  opened.push(database);
  return database;
}

async function close(database: OpenDatabase) {
  await database.close();
  opened.splice(opened.indexOf(database), 1);
}

/** Every row the test wrote, in a stable order, as plain data. */
async function contents(database: OpenDatabase) {
  const { db } = database;
  return {
    users: await db.user.findMany({ orderBy: { email: "asc" } }),
    keys: await db.apiKey.findMany({ orderBy: { hash: "asc" } }),
    positions: await db.position.findMany({ orderBy: { id: "asc" } }),
    funding: await db.fundingRate.findMany({ orderBy: [{ exchange: "asc" }, { market: "asc" }, { time: "asc" }] }),
    opportunities: await db.opportunitySet.findMany(),
  };
}

describe("backing up and restoring the embedded database", () => {
  const source = path.join(tmp, "source");
  const backup = path.join(tmp, "fods.tgz");
  let secret = "";
  let before: Awaited<ReturnType<typeof contents>>;

  it("backs up a database with accounts, keys, positions and funding history", async () => {
    const database = await open(source);
    const { db } = database;
    const desk = await createUser(db, "desk");
    const pro = await createUser(db, "pro");
    secret = (await createKeyFor(db, desk.id)).secret;
    await createKeyFor(db, pro.id, { mode: "test" });
    await createKeyFor(db, pro.id, { revokedAt: new Date("2026-11-20T00:00:00Z") });
    await seedLiveOpportunities(db, [liveOpportunity("BTC", 12.5), liveOpportunity("ETH", 30, "okx", "gate")]);
    for (const [i, symbol] of ["BTC", "ETH"].entries()) {
      await db.position.create({
        data: {
          userId: desk.id,
          keyMode: "LIVE",
          symbol,
          longExchange: "binance",
          longMarket: `${symbol}/USDT:USDT`,
          shortExchange: "bybit",
          shortMarket: `${symbol}/USDT:USDT`,
          notionalUsd: 10_000 * (i + 1),
          openedAt: new Date("2026-11-21T08:00:00Z"),
          entryApr: 12.5,
          note: `kept ${symbol}`,
        },
      });
    }
    await db.fundingRate.createMany({
      data: Array.from({ length: 48 }, (_, h) => ({
        exchange: h % 2 ? "binance" : "bybit",
        market: "BTC/USDT:USDT",
        base: "BTC",
        time: new Date(Date.UTC(2026, 10, 20, h)),
        rate: 0.0001 * (h + 1),
        intervalHours: 8,
        source: "observed",
      })),
    });
    before = await contents(database);
    expect(before.positions).toHaveLength(2);
    expect(before.funding).toHaveLength(48);
    await close(database);

    // A permissive umask, as a shell often has: the archive is still the owner's alone.
    const umask = process.umask(0o022);
    try {
      const result = await backupEmbeddedDatabase(source, backup);
      expect(result.bytes).toBe(fs.statSync(backup).size);
      expect(result.migrations).toBeGreaterThan(0);
      expect(fs.statSync(backup).mode & 0o777).toBe(0o600);
      await expect(backupEmbeddedDatabase(source, backup)).rejects.toThrow(/exists; pass --force/);
      fs.chmodSync(backup, 0o644); // a world-readable file replaced with --force
      await backupEmbeddedDatabase(source, backup, { force: true });
      expect(fs.statSync(backup).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(umask);
    }
  }, 60_000);

  it("restores into a new DATA_DIR with every row, and the restored database serves", async () => {
    const target = path.join(tmp, "restored");
    const result = await restoreEmbeddedDatabase(backup, target);
    expect(result.dir).toBe(path.join(target, "pglite"));
    expect(result.replacedMovedTo).toBeUndefined();
    expect(fs.existsSync(path.join(target, "embedded-db.lock")), "the restore released the lock").toBe(false);

    const database = await open(target);
    expect(database.appliedMigrations, "the backup carried the whole migration history").toEqual([]);
    expect(await contents(database)).toEqual(before);

    // The real /v1 app on the restored database: the key verifies and its portfolio is there.
    const services = createAppServices(async () => database.db, { NODE_ENV: "test" } as NodeJS.ProcessEnv); // memory limiter
    const app = createApiApp(() => services);
    const get = (p: string) => app.fetch(new Request(`http://localhost${p}`, { headers: { authorization: `Bearer ${secret}` } }));
    const verify = await get("/v1/auth/verify");
    expect(verify.status, await verify.clone().text()).toBe(200);
    const portfolio = (await (await get("/v1/portfolio")).json()) as { data: { items: { note: string }[] } };
    expect(portfolio.data.items.map((p) => p.note).sort()).toEqual(["kept BTC", "kept ETH"]);
    const listed = (await (await get("/v1/opportunities")).json()) as { data: { items: { id: string }[] } };
    expect(listed.data.items.map((o) => o.id).sort()).toEqual(["BTC-binance-bybit", "ETH-okx-gate"]);
    await services.stopRecorders();
    await close(database);
  }, 60_000);

  it("refuses to restore over a database without --force, and moves the old one aside with it", async () => {
    const target = path.join(tmp, "occupied");
    const database = await open(target);
    await createUser(database.db, "pro");
    await close(database);
    await expect(restoreEmbeddedDatabase(backup, target)).rejects.toThrow(BackupError);
    await expect(restoreEmbeddedDatabase(backup, target)).rejects.toThrow(/already holds a database/);

    const result = await restoreEmbeddedDatabase(backup, target, { force: true });
    expect(result.replacedMovedTo).toMatch(/pglite\.replaced-/);
    const restored = await open(target);
    expect(await restored.db.user.count()).toBe(before.users.length);
    await close(restored);
    expect(fs.existsSync(path.join(result.replacedMovedTo!, "PG_VERSION"))).toBe(true);
  }, 60_000);

  it("refuses while a running process owns the data directory", async () => {
    // A lock naming a live process on this host (our parent) as a server would leave it.
    const owned = path.join(tmp, "owned");
    fs.mkdirSync(owned, { recursive: true });
    const lock = { pid: process.ppid, hostname: os.hostname(), startedAt: new Date().toISOString(), command: "server.ts" };
    fs.writeFileSync(path.join(owned, "embedded-db.lock"), JSON.stringify(lock));
    await expect(restoreEmbeddedDatabase(backup, owned)).rejects.toThrow(DataDirLockedError);

    fs.cpSync(path.join(tmp, "restored"), path.join(tmp, "busy"), { recursive: true });
    fs.writeFileSync(path.join(tmp, "busy", "embedded-db.lock"), JSON.stringify(lock));
    await expect(backupEmbeddedDatabase(path.join(tmp, "busy"), path.join(tmp, "busy.tgz"))).rejects.toThrow(DataDirLockedError);
    expect(fs.existsSync(path.join(tmp, "busy.tgz"))).toBe(false);
  });

  it("refuses a file that is not a backup, leaving the directory as it was", async () => {
    const garbage = path.join(tmp, "garbage.tgz");
    fs.writeFileSync(garbage, "not a tarball");
    const target = path.join(tmp, "from-garbage");
    await expect(restoreEmbeddedDatabase(garbage, target)).rejects.toThrow(/not a backup/);
    expect(fs.existsSync(path.join(target, "pglite"))).toBe(false);
    await expect(restoreEmbeddedDatabase(path.join(tmp, "missing.tgz"), target)).rejects.toThrow(/No backup at/);
  }, 60_000);
});
