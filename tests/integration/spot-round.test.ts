import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db";
import type { OpenDatabase } from "@/lib/db/open-database";
import type { SpotLeg } from "@/lib/market/carry/spot-leg";
import { borrowHistory } from "@/lib/market/ingest/borrow-rate-store";
import { runIngestionRound } from "@/lib/market/ingest/run-ingestion-round";
import { spotFetcher, type SpotLegsListener } from "@/lib/market/ingest/spot-round";
import type { LegHistory } from "@/lib/market/opportunities/rank-opportunities";
import { applyRetention } from "@/lib/market/ingest/apply-retention";
import type { MarketSnapshot } from "@/lib/market/model/types";
import { createReplayFetch, type ReplayRoute } from "@/lib/market/venues/replay-fetch";
import { SPOT_REPLAYS } from "@/tests/fixtures/carry/spot-replay-table";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { createTestDatabase } from "@/tests/support/test-database";
import { binanceAndBybit } from "./helpers/venue-fetchers";

const HOUR = 3_600_000;
const opened: OpenDatabase[] = [];
let db: Db;
beforeEach(async () => {
  const database = await createTestDatabase();
  opened.push(database);
  db = database.db;
});
afterAll(async () => {
  for (const database of opened) await database.close();
});

const [OKX_TICKERS, OKX_QUOTA] = SPOT_REPLAYS.okx();
/** The recorded text of OKX's borrow-rate answer. */
const QUOTA_TEXT = (OKX_QUOTA!.reply as { body: string }).body;

/** OKX (borrow answer `quota`) and KuCoin answer their recordings; Gate answers HTTP 500. */
function spotReplay(quota = QUOTA_TEXT) {
  const routes: ReplayRoute[] = [
    OKX_TICKERS!,
    { path: "/api/v5/public/interest-rate-loan-quota", reply: { body: quota } },
    ...SPOT_REPLAYS.kucoin(),
    { path: "/api/v4/spot/tickers", reply: { status: 500, body: "down" } },
  ];
  return spotFetcher({ venues: ["okx", "kucoin", "gate"], fetchImplementation: createReplayFetch(routes).fetchImplementation });
}

function round(at: number, options: { spot?: ReturnType<typeof spotFetcher>; onSpotLegs?: SpotLegsListener } = {}) {
  return runIngestionRound({
    db,
    fetcher: binanceAndBybit((venue) => makeSnapshot({ exchange: venue, base: "BTC", market: "BTC/USDT:USDT", fundingRate: venue === "binance" ? 0.0001 : 0.0003 })),
    venues: ["binance", "bybit"],
    timeoutMs: 2_000,
    retention: { rawDays: 7, hourlyDays: 730 },
    now: () => at,
    spotFetcher: options.spot,
    onSpotLegs: options.onSpotLegs,
  });
}

describe("a round with spot venues", () => {
  it("publishes the perp set, records each spot venue, stores the borrow rates hourly and hands the legs on", async () => {
    const at = Date.parse("2026-12-04T10:20:00Z");
    const handed: { spots: readonly SpotLeg[]; perps: readonly MarketSnapshot[]; at: Date; legHistory?: LegHistory }[] = [];
    const outcome = await round(at, { spot: spotReplay(), onSpotLegs: (spots, perps, when, legHistory) => void handed.push({ spots, perps, at: when, legHistory }) });

    expect(outcome.status).toBe("published");
    expect(outcome.spotVenues).toEqual([
      { venue: "okx", exchange: "okx", status: "ok", legs: 1, borrow_rates: 1, error: null },
      { venue: "kucoin", exchange: "kucoinfutures", status: "ok", legs: 1, borrow_rates: 0, error: null },
      { venue: "gate", exchange: "gate", status: "stale", legs: 0, borrow_rates: 0, error: expect.stringMatching(/HTTP 500/) },
    ]);
    const stored = await db.ingestionRound.findUniqueOrThrow({ where: { id: outcome.roundId } });
    expect(stored.spotVenues).toEqual(outcome.spotVenues);

    expect(handed).toHaveLength(1);
    expect(handed[0]!.spots.map((leg) => `${leg.exchange} ${leg.market}`).sort()).toEqual(["kucoinfutures BTC/USDT", "okx BTC/USDT"]);
    expect(handed[0]!.perps.map((perp) => perp.exchange).sort()).toEqual(["binance", "bybit"]);
    expect(handed[0]!.at.getTime()).toBe(at);
    // With the round's history of its markets, for the carry set's perp legs to read as the perp set's do.
    expect(handed[0]!.legHistory?.settlements).toBeInstanceOf(Map);
    expect(handed[0]!.legHistory?.intervalChanges).toBeInstanceOf(Map);

    // OKX's daily 0.00019992 is 7.29708 % a year; the row sits at the start of its hour.
    expect(await borrowHistory(db, "okx", "BTC", new Date(at - 2 * HOUR), new Date(at + HOUR))).toEqual([
      { exchange: "okx", asset: "BTC", time: new Date("2026-12-04T10:00:00Z"), rate: 0.00019992, period: "day", aprPct: expect.closeTo(7.29708, 9), borrowable: 10, source: "/api/v5/public/interest-rate-loan-quota" },
    ]);
  });

  it("keeps one row an hour: a later round of the hour updates it, the next hour adds one, and retention removes old hours", async () => {
    const at = Date.parse("2026-12-04T10:20:00Z");
    await round(at, { spot: spotReplay() });
    expect(QUOTA_TEXT).toContain('"0.00019992"');
    await round(at + 20 * 60_000, { spot: spotReplay(QUOTA_TEXT.replace('"0.00019992"', '"0.0001"')) });
    await round(at + HOUR, { spot: spotReplay() });

    const history = await borrowHistory(db, "okx", "BTC", new Date(at - HOUR), new Date(at + 2 * HOUR));
    expect(history.map((row) => [row.time.toISOString(), row.rate])).toEqual([
      ["2026-12-04T10:00:00.000Z", 0.0001],
      ["2026-12-04T11:00:00.000Z", 0.00019992],
    ]);
    await applyRetention(db, { rawDays: 7, hourlyDays: 1 }, new Date(at + 24.5 * HOUR));
    expect((await borrowHistory(db, "okx", "BTC", new Date(at - HOUR), new Date(at + 2 * HOUR))).map((row) => row.time.toISOString())).toEqual(["2026-12-04T11:00:00.000Z"]);
  });

  it("asks the spot venues only once the perp set is committed, so they never take a core from it", async () => {
    const at = Date.parse("2026-12-04T10:20:00Z");
    const replay = spotReplay();
    let statusWhenAsked: string | undefined;
    const spot: ReturnType<typeof spotFetcher> = async (options) => {
      statusWhenAsked = (await db.ingestionRound.findFirstOrThrow({ orderBy: { startedAt: "desc" } })).status;
      return replay(options);
    };
    const outcome = await round(at, { spot });
    expect(outcome.status).toBe("published");
    expect(statusWhenAsked).toBe("published");
    expect(outcome.spotVenues?.map((v) => v.status)).toEqual(["ok", "ok", "stale"]);
  });

  it("hands no legs on when no spot venue answered, so the carry set served stays", async () => {
    const down = spotFetcher({ venues: ["okx", "gate"], fetchImplementation: createReplayFetch([]).fetchImplementation });
    let handed = 0;
    const outcome = await round(Date.parse("2026-12-04T10:20:00Z"), { spot: down, onSpotLegs: () => void (handed += 1) });
    expect(outcome.status).toBe("published");
    expect(outcome.spotVenues?.map((v) => v.status)).toEqual(["stale", "stale"]);
    expect(handed).toBe(0);
  });

  it("without a spot fetcher (INGEST_SPOT=off) records no spot venue and stores no borrow rate", async () => {
    const outcome = await round(Date.parse("2026-12-04T10:20:00Z"));
    expect(outcome.status).toBe("published");
    expect(outcome.spotVenues).toBeUndefined();
    expect((await db.ingestionRound.findUniqueOrThrow({ where: { id: outcome.roundId } })).spotVenues).toBeNull();
    expect(await db.borrowRate.count()).toBe(0);
  });
});
