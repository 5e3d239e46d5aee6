import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenDatabase } from "@/lib/db/open-database";
import { createTestDatabase } from "@/tests/support/test-database";

let database: OpenDatabase;
beforeAll(async () => {
  // Migrated by this open, not copied from the migrated cluster, to see what the open records.
  database = await createTestDatabase({ replayMigrations: true });
});
afterAll(() => database?.close());

describe("a freshly migrated database", () => {
  it("records the migrations it applied in _prisma_migrations, as prisma migrate deploy does", async () => {
    expect(database.appliedMigrations.length).toBeGreaterThan(0);
    const rows = await database.db.$queryRaw<{ migration_name: string; finished_at: Date | null }[]>`
      SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name`;
    expect(rows.map((r) => r.migration_name)).toEqual(database.appliedMigrations);
    expect(rows.every((r) => r.finished_at instanceof Date)).toBe(true);
  });

  it("stores users, keys and audit events with their relations", async () => {
    const user = await database.db.user.create({ data: { email: "ada@example.com", passwordHash: "argon2-hash" } });
    expect(user.tier).toBe("FREE");
    const key = await database.db.apiKey.create({
      data: {
        userId: user.id,
        name: "bot",
        mode: "LIVE",
        prefix: "svc_sk_live_Ab3dE9xQ",
        hash: "a".repeat(64),
        permissions: ["opportunities:read"],
      },
    });
    expect(key.permissions).toEqual(["opportunities:read"]);
    expect(key.lastUsedAt).toBeNull();
    await database.db.auditEvent.create({ data: { actorId: user.id, action: "key.created", target: key.id } });
    const loaded = await database.db.user.findUniqueOrThrow({
      where: { id: user.id },
      include: { apiKeys: true, auditEvents: true },
    });
    expect(loaded.apiKeys).toHaveLength(1);
    expect(loaded.auditEvents[0]?.action).toBe("key.created");
  });

  it("refuses a second user with the same e-mail and a second key with the same hash", async () => {
    await database.db.user.create({ data: { email: "dup@example.com", passwordHash: "x" } });
    await expect(database.db.user.create({ data: { email: "dup@example.com", passwordHash: "y" } })).rejects.toThrow();
    const owner = await database.db.user.findUniqueOrThrow({ where: { email: "dup@example.com" } });
    const data = { userId: owner.id, name: "k", mode: "TEST" as const, prefix: "p", hash: "b".repeat(64), permissions: [] };
    await database.db.apiKey.create({ data });
    await expect(database.db.apiKey.create({ data })).rejects.toThrow();
  });
});
