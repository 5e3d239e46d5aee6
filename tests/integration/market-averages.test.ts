import { afterAll, describe, expect, it } from "vitest";
import { readMarketAverages, readRoundAverageSums } from "@/lib/market/ingest/read-market-averages";
import { observedAverages } from "@/tests/support/market/observed-averages";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { marketKey } from "@/lib/market/model/market-average";
import type { OpenDatabase } from "@/lib/db/open-database";
import { createTestDatabase } from "@/tests/support/test-database";

const HOUR = 3_600_000;
/** The markets the tests store, observed without a rate: their stored averages, no sample added. */
const unrated = ["BTC", "ETH", "SOL"].map((base) => makeSnapshot({ exchange: "okx", base, fundingRate: null }));
const readRoundAverages = async (db: OpenDatabase["db"], at: Date) => observedAverages(await readRoundAverageSums(db, at), unrated);
const opened: OpenDatabase[] = [];
afterAll(async () => {
  for (const database of opened) await database.close();
});

async function hourly(db: OpenDatabase["db"], market: string, hour: number, apr: number, samples = 2) {
  await db.fundingRateHourly.upsert({
    where: { hour_exchange_market: { hour: new Date(hour), exchange: "okx", market } },
    create: { exchange: "okx", market, base: market.split("/")[0]!, hour: new Date(hour), samples, rateSum: 0, aprSum: apr * samples, rateMin: 0, rateMax: 0 },
    update: { samples: { increment: samples }, aprSum: { increment: apr * samples } },
  });
}

describe("a round's 1d/7d averages", () => {
  it("are the full query's figures, with settled hours summed once an hour and the last two read every time", async () => {
    const database = await createTestDatabase();
    opened.push(database);
    const { db } = database;
    const now = Date.UTC(2026, 10, 24, 12, 30);
    const current = Date.UTC(2026, 10, 24, 12);
    // BTC: a week of hours at 10 %/yr, the last day at 20 %/yr; ETH only 30 hours ago; SOL 8 days ago.
    for (let h = 0; h < 168; h++) await hourly(db, "BTC/USDT:USDT", current - h * HOUR, h < 24 ? 20 : 10);
    await hourly(db, "ETH/USDT:USDT", current - 30 * HOUR, -5);
    await hourly(db, "SOL/USDT:USDT", current - 8 * 24 * HOUR, 99);

    const full = await readMarketAverages(db, new Date(now));
    const round = await readRoundAverages(db, new Date(now));
    expect(round).toEqual(full);
    expect(round.get(marketKey("okx", "BTC/USDT:USDT"))).toEqual({ day: 20, week: (24 * 20 + 144 * 10) / 168 });
    expect(round.get(marketKey("okx", "ETH/USDT:USDT"))).toEqual({ day: null, week: -5 });
    expect(round.has(marketKey("okx", "SOL/USDT:USDT"))).toBe(false);

    // Later in the hour the current hour and the one before it gain samples (a round that began
    // before 12:00 folds in late); settled hours are not read again, yet the figures still match.
    await hourly(db, "BTC/USDT:USDT", current, 50);
    await hourly(db, "BTC/USDT:USDT", current - HOUR, 50);
    await db.fundingRateHourly.updateMany({ where: { hour: new Date(current - 5 * HOUR) }, data: { aprSum: 10_000 } });
    const later = await readRoundAverages(db, new Date(now + 20 * 60_000));
    // Both late-folded hours count; the settled sums were read at 12:30 and kept, so the edit of
    // 07:00's row (which no round would make) shows only from 13:00.
    expect(later.get(marketKey("okx", "BTC/USDT:USDT"))?.day).toBeCloseTo((24 * 20 * 2 + 50 * 4) / (24 * 2 + 4), 10);
    const nextHour = await readRoundAverages(db, new Date(current + HOUR + 60_000));
    expect(nextHour).toEqual(await readMarketAverages(db, new Date(current + HOUR + 60_000)));
  });

  it("count a round's own observations as aggregating them would, each one sample of its hour", async () => {
    const database = await createTestDatabase();
    opened.push(database);
    const { db } = database;
    const current = Date.UTC(2026, 10, 24, 12);
    for (let h = 1; h < 48; h++) await hourly(db, "BTC/USDT:USDT", current - h * HOUR, 10);
    const sums = await readRoundAverageSums(db, new Date(current + 60_000));
    // 0.0002 per 8h = 21.9 %/yr, observed now; ETH has no stored history; SOL's observation is 9 days old.
    const observed = [
      makeSnapshot({ exchange: "okx", fundingRate: 0.0002, observedAt: current + 30_000 }),
      makeSnapshot({ exchange: "okx", base: "ETH", fundingRate: -0.0001, fundingIntervalHours: 4, observedAt: current + 30_000 }),
      makeSnapshot({ exchange: "okx", base: "SOL", observedAt: current - 9 * 24 * HOUR }),
    ];
    const averages = observedAverages(sums, observed);
    expect(averages.get(marketKey("okx", "BTC/USDT:USDT"))?.day).toBeCloseTo((23 * 2 * 10 + 21.9) / (23 * 2 + 1), 10);
    expect(averages.get(marketKey("okx", "BTC/USDT:USDT"))?.week).toBeCloseTo((47 * 2 * 10 + 21.9) / (47 * 2 + 1), 10);
    expect(averages.get(marketKey("okx", "ETH/USDT:USDT"))).toEqual({ day: -21.9, week: -21.9 });
    expect(averages.has(marketKey("okx", "SOL/USDT:USDT"))).toBe(false);
    // The same figures once the observation is stored and folded in (aggregateRound's sums).
    await hourly(db, "BTC/USDT:USDT", current, 21.9, 1);
    expect((await readMarketAverages(db, new Date(current + 60_000))).get(marketKey("okx", "BTC/USDT:USDT"))?.day).toBeCloseTo(
      averages.get(marketKey("okx", "BTC/USDT:USDT"))?.day ?? 0,
      10,
    );
  });
});
