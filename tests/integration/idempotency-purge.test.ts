import { describe, expect, it } from "vitest";
import { IDEMPOTENCY_TTL_MS, purgeExpiredIdempotencyRecords } from "@/lib/api/idempotency";
import { createUser } from "@/tests/support/api-fixtures";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";

const database = testDatabaseForFile();
describe("purging stored idempotent responses", () => {
  it("deletes responses older than 24 h and abandoned pending records, and keeps the rest", async () => {
    const { db } = database;
    const user = await createUser(db, "desk");
    const now = Date.now();
    const row = (key: string, ageMs: number, done: boolean) => ({
      userId: user.id,
      keyMode: "LIVE" as const,
      key,
      fingerprint: `POST /v1/simulations ${key}`,
      createdAt: new Date(now - ageMs),
      ...(done && { responseStatus: 201, responseBody: { data: { id: key } } }),
    });
    await db.idempotencyRecord.createMany({
      data: [
        row("expired", IDEMPOTENCY_TTL_MS + 60_000, true),
        row("long-expired", 30 * IDEMPOTENCY_TTL_MS, true),
        row("fresh", IDEMPOTENCY_TTL_MS - 60_000, true),
        row("abandoned", 5 * 60_000, false),
        row("running", 1_000, false),
      ],
    });
    expect(await purgeExpiredIdempotencyRecords(db, now)).toBe(3);
    const left = await db.idempotencyRecord.findMany({ where: { userId: user.id }, orderBy: { key: "asc" } });
    expect(left.map((r) => r.key)).toEqual(["fresh", "running"]);
    expect(await purgeExpiredIdempotencyRecords(db, now)).toBe(0);
  });
});
