// The embedded database as a server opens it: a new data directory starts as a copy of the prebuilt
// cluster (lib/db/pglite-template.mjs), and every start applies the memory settings of
// lib/db/pglite-settings.ts. PGlite only, whatever DATABASE_URL says.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/lib/db/open-database";
import { PGLITE_SETTINGS } from "@/lib/db/pglite-settings";
import { copyPgliteTemplate, makePgliteTemplate, pgliteTemplatePaths } from "@/lib/db/pglite-template.mjs";

const tmp = mkdtempSync(path.join(os.tmpdir(), "fods-embedded-"));
beforeAll(() => makePgliteTemplate(), 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function settings(db: Db): Promise<Record<string, string>> {
  const rows = await db.$queryRawUnsafe<{ name: string; setting: string; unit: string | null }[]>(
    "SELECT name, setting, unit FROM pg_settings WHERE name = ANY($1)",
    Object.keys(PGLITE_SETTINGS),
  );
  // pg_settings counts shared_buffers in 8 kB pages and the others in kB: back to what was set.
  const asSet = (r: { setting: string; unit: string | null }) =>
    r.unit === "8kB" ? `${(Number(r.setting) * 8) / 1024}MB` : r.unit === "kB" ? `${Number(r.setting) / 1024}MB` : r.setting;
  return Object.fromEntries(rows.map((r) => [r.name, asSet(r)]));
}

describe("a new data directory", () => {
  it("is a copy of the prebuilt cluster, migrated, owner-only, and opens again with its data", async () => {
    const dataDir = path.join(tmp, "new");
    const opened = await openDatabase({ driver: "pglite", dataDir });
    try {
      // The cluster's identity, set once by initdb (the first field of global/pg_control): the template's, not a new one.
      const rows = await opened.db.$queryRaw<{ id: string }[]>`SELECT system_identifier::text AS id FROM pg_control_system()`;
      const template = readFileSync(path.join(pgliteTemplatePaths().dir, "global", "pg_control")).readBigUInt64LE(0);
      expect(rows[0]?.id).toBe(template.toString());
      expect(opened.appliedMigrations.length).toBeGreaterThan(0);
      expect(await settings(opened.db)).toEqual(PGLITE_SETTINGS);
      await opened.db.user.create({ data: { email: "kept@example.com", passwordHash: "x" } });
    } finally {
      await opened.close();
    }
    expect(readdirSync(dataDir).some((name) => name.includes(".creating-"))).toBe(false);
    expect(statSync(path.join(dataDir, "pglite", "PG_VERSION")).mode & 0o077).toBe(0);

    const again = await openDatabase({ driver: "pglite", dataDir });
    try {
      expect(again.appliedMigrations).toEqual([]);
      expect(await again.db.user.count({ where: { email: "kept@example.com" } })).toBe(1);
      expect(await settings(again.db)).toEqual(PGLITE_SETTINGS);
    } finally {
      await again.close();
    }
  }, 120_000);

  it("is not copied over anything already in the way", () => {
    const target = path.join(tmp, "occupied", "pglite");
    mkdirSync(target, { recursive: true });
    writeFileSync(path.join(target, "stray"), "x");
    expect(copyPgliteTemplate(target)).toBe(false);
    expect(readdirSync(target)).toEqual(["stray"]);
    expect(readdirSync(path.dirname(target))).toEqual(["pglite"]);
  });

  it("keeps the template itself writable by its owner only", () => {
    const { dir, tarball } = pgliteTemplatePaths();
    expect(existsSync(tarball)).toBe(true);
    expect(statSync(path.join(dir, "PG_VERSION")).mode & 0o022).toBe(0);
  });
});

describe("an in-memory database (the tests' own)", () => {
  it("loads the prebuilt cluster with the same settings", async () => {
    const opened = await openDatabase({ driver: "pglite", dataDir: null });
    try {
      expect(await settings(opened.db)).toEqual(PGLITE_SETTINGS);
      expect(opened.wasmMemoryBytes()).toBeGreaterThan(0);
    } finally {
      await opened.close();
    }
  }, 120_000);
});
