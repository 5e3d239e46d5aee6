import { describe, expect, it } from "vitest";
import { CursorMovedError, seedCursors, storePages, workableCursors } from "@/lib/history/backfill/backfill-store";
import type { HistoryMarket } from "@/lib/history/history-types";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";

// storePages' one statement: a page's rows and its cursor's move are written together, only from
// where the run read the cursor, and a page written twice counts its rows once.

const H = 3_600_000;
const NOW = Math.ceil(Date.now() / H) * H;
const database = testDatabaseForFile();
const btc: HistoryMarket = { exchange: "store", market: "BTC/USDT:USDT", venueMarketId: "BTCUSDT", base: "BTC" };
const page = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ time: from + i * 8 * H, rate: 0.0001 * (i + 1), intervalHours: null }));

describe("storePages", () => {
  it("writes a page with its cursor's move, refuses a cursor another run moved, and counts a page stored twice once", async () => {
    const db = database.db;
    await seedCursors(db, [btc], NOW);
    const [read] = await workableCursors(db, "store", NOW);
    const walking = { ...read!, walkSince: NOW - 30 * 24 * H, walkUntil: NOW, pageCursor: "2" };

    const first = page(NOW - 10 * 8 * H, 5);
    expect(await storePages(db, btc, read!, { ...walking, status: "pending" }, first, NOW)).toEqual({ inserted: 5, intervalChanges: 0 });
    const stored = await db.fundingRate.findMany({ where: { exchange: "store" }, orderBy: { time: "asc" } });
    expect(stored.map((r) => [r.time.getTime(), r.rate, r.intervalHours, r.source])).toEqual(first.map((s) => [s.time, s.rate, 8, "backfill"]));
    const cursor = await db.backfillCursor.findUniqueOrThrow({ where: { exchange_market: { exchange: "store", market: btc.market } } });
    expect(cursor).toMatchObject({ pageCursor: "2", rows: 5, status: "pending", walkSince: new Date(walking.walkSince) });
    expect(cursor.oldestSettlement?.getTime()).toBe(first[0]!.time);
    expect(cursor.newestSettlement?.getTime()).toBe(first.at(-1)!.time);

    // A second run that read the cursor before the first moved it: nothing of its page is written.
    const late = page(NOW - 4 * 8 * H, 3);
    await expect(storePages(db, btc, read!, { ...walking, pageCursor: "9", status: "pending" }, late, NOW)).rejects.toBeInstanceOf(CursorMovedError);
    expect(await db.fundingRate.count({ where: { exchange: "store" } })).toBe(5);
    expect(await db.backfillCursor.findUniqueOrThrow({ where: { exchange_market: { exchange: "store", market: btc.market } } })).toMatchObject({ pageCursor: "2", rows: 5 });

    // The same page again from where the cursor stands: its rows stand, none counted twice; the cursor moves.
    const done = { ...walking, walkSince: null, walkUntil: null, pageCursor: null, coveredSince: walking.walkSince, coveredUntil: NOW };
    expect(await storePages(db, btc, walking, { ...done, status: "done" }, [...first, ...late], NOW)).toEqual({ inserted: 3, intervalChanges: 0 });
    expect(await db.fundingRate.count({ where: { exchange: "store" } })).toBe(8);
    expect(await db.backfillCursor.findUniqueOrThrow({ where: { exchange_market: { exchange: "store", market: btc.market } } })).toMatchObject({ status: "done", rows: 8, pageCursor: null });

    // An empty page moves the cursor alone.
    await expect(storePages(db, btc, done, { ...done, status: "done" }, [], NOW)).resolves.toEqual({ inserted: 0, intervalChanges: 0 });
  });
});
