import { describe, expect, it } from "vitest";
import { float8ArrayParam, textArrayParam, timestampArrayParam } from "@/lib/db/array-binary";
import { plainArrayLiteral, textArrayLiteral } from "@/lib/db/array-literal";
import { asOneStatement, directSql } from "@/lib/db/direct-sql";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";

const database = testDatabaseForFile();

describe("the driver beside Prisma (lib/db/direct-sql.ts)", () => {
  it("reads back every text and number passed as an array literal exactly (lib/db/array-literal.ts)", async () => {
    const texts = ["BTC/USDT:USDT", null, "", 'say "hi"', "back\\slash\\", "NULL", "{a,b}", " spaced ", "1000PEPE", "ünï", "a\nb"];
    const numbers = [0.1 + 0.2, null, -1e-12, 97_000.5, 5e-324, Number.MAX_VALUE];
    const [row] = await directSql(database.db).query<{ texts: (string | null)[]; numbers: (number | null)[] }>({
      text: `SELECT $1::text[] AS texts, $2::text[]::float8[] AS numbers`,
      values: [textArrayLiteral(texts, (t) => t), plainArrayLiteral(numbers, (n) => n)],
    });
    expect(row?.texts).toEqual(texts);
    expect(row?.numbers).toEqual(numbers);
  });

  it("reads back every number, time and text passed in binary exactly, NULL where there is none (lib/db/array-binary.ts)", async () => {
    const numbers = [0.1 + 0.2, null, -1e-12, 97_000.5, 5e-324, Number.MAX_VALUE, -0, Number.NaN];
    const times = [Date.UTC(2026, 11, 5, 22, 1, 38, 117), null, Date.UTC(1999, 11, 31, 23, 59, 59, 999)];
    const texts = ["BTC/USDT:USDT", null, "", 'say "hi"', "back\\slash\\", "NULL", "{a,b}", " spaced ", "ünï", "a\nb"];
    const [row] = await directSql(database.db).query<{ numbers: (number | null)[]; times: (Date | null)[]; texts: (string | null)[]; negative_zero: boolean }>({
      text: `SELECT $1::float8[] AS numbers, $2::timestamp(3)[] AS times, $3::text[] AS texts, (($1::float8[])[7])::text = '-0' AS negative_zero`,
      values: [float8ArrayParam(numbers, (n) => n), timestampArrayParam(times, (t) => t), textArrayParam(texts, (t) => t)],
    });
    expect(row?.texts).toEqual(texts);
    expect(row?.numbers).toEqual([0.1 + 0.2, null, -1e-12, 97_000.5, 5e-324, Number.MAX_VALUE, -0, null]);
    expect(row?.negative_zero).toBe(true);
    expect(row?.times.map((t) => t?.getTime() ?? null)).toEqual(times);
  });

  it("reads back megabytes of binary parameters beside small ones exactly, in and out of a transaction (on PostgreSQL each sent as its own piece: lib/db/bind-message.ts)", async () => {
    const numbers = Array.from({ length: 200_000 }, (_, i) => (i % 97 === 0 ? null : i / 7));
    const texts = Array.from({ length: 50_000 }, (_, i) => (i % 89 === 0 ? null : `${i}-ünï`));
    const statement = {
      text: `SELECT $1::text AS label, $2::float8[] AS numbers, $3::int AS n, $4::text[] AS texts, $5::text AS tail`,
      values: ["head", float8ArrayParam(numbers, (n) => n), 7, textArrayParam(texts, (t) => t), "tail"],
    };
    for (const run of [(s: typeof statement) => directSql(database.db).query(s), (s: typeof statement) => directSql(database.db).transaction((tx) => tx.query(s))]) {
      const [row] = (await run(statement)) as { label: string; numbers: (number | null)[]; n: number; texts: (string | null)[]; tail: string }[];
      expect(row?.label).toBe("head");
      expect(row?.numbers).toEqual(numbers);
      expect(row?.n).toBe(7);
      expect(row?.texts).toEqual(texts);
      expect(row?.tail).toBe("tail");
    }
  });

  it("reads a time Prisma wrote as the same instant, whatever the process's time zone", async () => {
    const startedAt = new Date("2026-11-25T07:08:09.123Z");
    const round = await database.db.ingestionRound.create({ data: { startedAt, status: "running" } });
    const zone = process.env.TZ;
    process.env.TZ = "America/New_York";
    try {
      const [row] = await directSql(database.db).query<{ startedAt: Date }>({ text: `SELECT "startedAt" FROM "IngestionRound" WHERE id = $1`, values: [round.id] });
      expect(row?.startedAt.toISOString()).toBe(startedAt.toISOString());
    } finally {
      process.env.TZ = zone;
    }
  });

  it("commits a transaction whole, and rolls it back whole when its work throws", async () => {
    const sql = directSql(database.db);
    const count = async () => (await sql.query<{ n: number }>({ text: `SELECT count(*)::int AS n FROM "VenueHealth"`, values: [] }))[0]!.n;
    const insert = (id: string) => ({
      text: `INSERT INTO "VenueHealth" (id, status, "lastAttemptAt", "updatedAt") VALUES ($1, 'ok', now(), now())`,
      values: [id],
    });
    const before = await count();
    await sql.transaction(async (tx) => {
      await tx.query(insert("venue-a"));
      await tx.query(insert("venue-b"));
    });
    expect(await count()).toBe(before + 2);
    await expect(
      sql.transaction(async (tx) => {
        await tx.query(insert("venue-c"));
        await tx.query({ text: "SELECT 1 / 0", values: [] });
      }),
    ).rejects.toThrow(/division by zero/);
    expect(await count()).toBe(before + 2);
  });

  it("runs statements made one (asOneStatement) all, or none when one of them fails", async () => {
    const sql = directSql(database.db);
    const ids = async () => (await sql.query<{ id: string }>({ text: `SELECT id FROM "VenueHealth" WHERE id LIKE 'one-%' ORDER BY id`, values: [] })).map((r) => r.id);
    const insert = (id: string) => ({ text: `INSERT INTO "VenueHealth" (id, status, "lastAttemptAt", "updatedAt") VALUES ($1, 'ok', now(), now())`, values: [id] });
    await sql.query(asOneStatement([insert("one-a"), insert("one-b")]));
    expect(await ids()).toEqual(["one-a", "one-b"]);
    // The second part breaks the primary key: the first part's row is not kept either.
    await expect(sql.query(asOneStatement([insert("one-c"), insert("one-a")]))).rejects.toThrow();
    expect(await ids()).toEqual(["one-a", "one-b"]);
  });
});
