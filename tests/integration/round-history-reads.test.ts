// What a round reads back of earlier rounds when it has no memory of them (RoundMemory).
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db";
import { readLastSettlements } from "@/lib/market/ingest/read-last-settlements";
import { previousObservations, type VenueRoundResult } from "@/lib/market/ingest/store-round";
import { marketKey } from "@/lib/market/model/market-average";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";

const HOUR = 3_600_000;
const now = Date.UTC(2026, 10, 24, 12);
/** Not on a whole second, so the milliseconds of what is read back are checked too. */
const settledNow = Date.UTC(2026, 10, 25, 12, 0, 0, 123);
const database = testDatabaseForFile();
let db: Db;

beforeAll(async () => {
  db = database.db;
});

const answered = (exchange: string, status: "ok" | "stale"): VenueRoundResult => ({
  exchange: exchange as VenueRoundResult["exchange"],
  status,
  markets: status === "ok" ? 1 : 0,
  error: status === "ok" ? null : "timeout",
  duration_ms: 10,
});

/** A round `hoursAgo` before now with its venues' answers, and a stored snapshot for each venue in `stored`. */
async function storedRound(hoursAgo: number, venues: VenueRoundResult[], stored: { exchange: string; rate: number }[]) {
  const startedAt = new Date(now - hoursAgo * HOUR);
  const round = await db.ingestionRound.create({ data: { startedAt, status: "published", venues: venues as object[] } });
  for (const { exchange, rate } of stored) {
    await db.roundSnapshot.create({
      data: {
        roundId: round.id, exchange, market: "BTC/USDT:USDT", venueMarketId: "BTCUSDT", base: "BTC", venueBase: "BTC",
        contractMultiplier: 1, quote: "USDT", settle: "USDT", fundingRate: rate, fundingIntervalHours: 8,
        nextFundingAt: new Date(now + HOUR), observedAt: startedAt,
      },
    });
  }
  return round.id;
}

describe("previousObservations", () => {
  it("takes each venue's rows from the newest earlier round that answered for it and stored them", async () => {
    // Two days ago: too old to say anything about the next settlement.
    await storedRound(48, [answered("bitget", "ok")], [{ exchange: "bitget", rate: 0.9 }]);
    await storedRound(3, [answered("binance", "ok"), answered("okx", "ok")], [
      { exchange: "binance", rate: 0.1 },
      { exchange: "okx", rate: 0.2 },
    ]);
    // binance answered here, okx was stale: okx's rows come from the round before.
    await storedRound(2, [answered("binance", "ok"), answered("okx", "stale")], [{ exchange: "binance", rate: 0.3 }]);
    // Killed before storing: binance's answer is recorded, its rows are not, so the round is passed over.
    await storedRound(1, [answered("binance", "ok")], []);
    // The round asking, which is never its own previous one.
    const current = await storedRound(0, [answered("binance", "ok"), answered("okx", "ok")], [
      { exchange: "binance", rate: 0.5 },
      { exchange: "okx", rate: 0.6 },
    ]);

    const found = await previousObservations(db, ["binance", "okx", "bitget", "gate"], { excludeRoundId: current, now: new Date(now) });
    const byVenue = Object.fromEntries(found.map((row) => [row.exchange, row]));
    expect(Object.keys(byVenue).sort()).toEqual(["binance", "okx"]);
    expect(byVenue.binance).toEqual({
      exchange: "binance",
      market: "BTC/USDT:USDT",
      base: "BTC",
      fundingRate: 0.3,
      fundingIntervalHours: 8,
      nextFundingAt: now + HOUR,
      observedAt: now - 2 * HOUR,
      roundStartedAt: now - 2 * HOUR,
    });
    expect(byVenue.okx).toMatchObject({ fundingRate: 0.2, observedAt: now - 3 * HOUR });
  });

  it("reads only the venues asked for", async () => {
    const found = await previousObservations(db, ["okx"], { excludeRoundId: "none", now: new Date(now) });
    expect(found.map((row) => [row.exchange, row.fundingRate])).toEqual([["okx", 0.6]]);
  });
});

describe("readLastSettlements", () => {
  it("gives each market its newest settlement of the last day, rate and millisecond exactly as stored", async () => {
    const settle = (exchange: string, market: string, at: number, rate: number) =>
      db.fundingRate.create({ data: { exchange, market, base: market.split("/")[0]!, time: new Date(at), rate, intervalHours: 8, source: "observed" } });
    await settle("binance", "BTC/USDT:USDT", settledNow - 16 * HOUR, 0.5);
    await settle("binance", "BTC/USDT:USDT", settledNow - 8 * HOUR + 7, 0.000123456789012345);
    await settle("binance", "BTC/USDT:USDT", settledNow - 9 * HOUR, 0.9);
    // The newest of okx's is after the moment asked about; the one before it counts.
    await settle("okx", "BTC/USDT:USDT", settledNow + HOUR, 0.7);
    await settle("okx", "BTC/USDT:USDT", settledNow - HOUR - 999, -1 / 3);
    // More than a day old: too old to be a leg's last settlement.
    await settle("gate", "BTC/USDT:USDT", settledNow - 25 * HOUR, 0.2);

    const found = await readLastSettlements(db, new Date(settledNow));
    expect(Object.fromEntries(found)).toEqual({
      [marketKey("binance", "BTC/USDT:USDT")]: { rate: 0.000123456789012345, at: settledNow - 8 * HOUR + 7 },
      [marketKey("okx", "BTC/USDT:USDT")]: { rate: -1 / 3, at: settledNow - HOUR - 999 },
    });
  });
});
