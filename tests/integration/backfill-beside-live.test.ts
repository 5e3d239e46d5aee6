import { describe, expect, it } from "vitest";
import { backfillVenue } from "@/lib/history/backfill/backfill-venue";
import { seedCursors } from "@/lib/history/backfill/backfill-store";
import { httpHistoryIo } from "@/lib/history/backfill/history-http";
import { backfillBudget } from "@/lib/history/backfill/request-budget";
import type { HistoryMarket, HistoryPage, VenueHistoryReader } from "@/lib/history/history-types";
import { fetchVenueSnapshot } from "@/lib/market/venues/connectors/fetch-venue-snapshot";
import { createReplayFetch } from "@/lib/market/venues/replay-fetch";
import { SharedBuckets, VenueBudgets } from "@/lib/market/venues/venue-budget";
import { VENUE_REQUEST_LIMITS } from "@/lib/market/venues/venue-request-limits";
import { VENUE_IDS } from "@/lib/market/model/types";
import { VENUE_REPLAYS } from "@/tests/fixtures/venues/venue-replay-table";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";

// A backfill of Bybit drawing flat out from Bybit's budget (pages answered at once from memory,
// stored in a real database) beside a live refresh of Bybit replayed through the real connector,
// drawing from the same budget: the refresh's requests find the live reserve and wait for nothing.

const H = 3_600_000;
const NOW = Math.ceil(Date.now() / H) * H;
const database = testDatabaseForFile();
// A small budget, so the backfill empties it down to the reserve within the test.
const LIMIT = { requestsPerSecond: 4, burst: 8, source: "test" };
const RESERVE = Math.floor(LIMIT.burst / 2);

function budgets(): VenueBudgets {
  return new VenueBudgets(SharedBuckets.buffer(VENUE_IDS.length), { ...VENUE_REQUEST_LIMITS, bybit: LIMIT });
}

/** A Bybit history reader whose every page is one request through `io`, answered from memory: 10 hourly settlements a page, 60 pages a market. */
function reader(requests: number[]): VenueHistoryReader {
  return {
    exchange: "bybit",
    limits: { pageSize: 10, maxDepthDays: null, pagination: "page-number", requestsPerSecond: 1_000, source: "test" },
    async readPage(io, _market, range, cursor): Promise<HistoryPage> {
      await io.getJson("https://api.bybit.test/history");
      requests.push(Date.now());
      const page = Number(cursor ?? 0);
      const times = Array.from({ length: 10 }, (_, i) => range.until - (page * 10 + i) * H).filter((t) => t >= range.since);
      return { settlements: times.map((time) => ({ time, rate: 0.0001, intervalHours: 1 })), next: page < 59 ? String(page + 1) : null };
    },
  };
}

const answer = (async () => new Response("{}", { status: 200 })) as unknown as typeof fetch;

/** A live refresh of Bybit replayed through the real connector, each request drawing from `shared`: how long each waited for its token. */
async function liveRefresh(shared: VenueBudgets): Promise<{ waits: number[]; requests: number }> {
  const replay = createReplayFetch(VENUE_REPLAYS.bybit());
  const waits: number[] = [];
  const timed = {
    take: async (...args: Parameters<VenueBudgets["take"]>) => {
      const started = performance.now();
      await shared.take(...args);
      waits.push(performance.now() - started);
    },
  };
  const result = await fetchVenueSnapshot("bybit", { fetchImplementation: replay.fetchImplementation, enableRateLimit: false, budgets: timed });
  expect(result.status).toBe("ok");
  return { waits, requests: replay.requests.length };
}

describe("the backfill beside a live round", () => {
  it("never delays the round's requests, and the two together stay within the venue's rate", async () => {
    const db = database.db;
    // Warm: ccxt's Bybit class loaded, and the refresh's own time with the budget to itself.
    await liveRefresh(budgets());
    const alone = await liveRefresh(budgets());
    expect(alone.requests).toBeLessThanOrEqual(RESERVE);

    const shared = budgets();
    const markets: HistoryMarket[] = ["BTC", "ETH", "SOL"].map((base) => ({ exchange: "bybit", market: `${base}/USDT:USDT`, venueMarketId: `${base}USDT`, base }));
    await seedCursors(db, markets, NOW);
    const backfilled: number[] = [];
    const abort = new AbortController();
    const started = Date.now();
    const backfill = backfillVenue({
      db,
      reader: reader(backfilled),
      io: httpHistoryIo({ budget: backfillBudget("bybit", 1_000, shared), fetch: answer }),
      since: NOW - 30 * 24 * H,
      now: () => NOW,
      signal: abort.signal,
    });
    // Flat out: the backfill has taken the bucket down to the live reserve.
    await expect.poll(() => backfilled.length, { timeout: 20_000 }).toBeGreaterThan(LIMIT.burst);
    await expect.poll(() => shared.tokens("bybit"), { timeout: 20_000 }).toBeLessThan(RESERVE + 1);

    const beside = await liveRefresh(shared);
    // No request of the refresh queued behind the backfill's: each found its token at once (a token
    // waited for is a whole interval, 250 ms at this rate; the bound leaves room for a loaded machine).
    expect(beside.requests).toBe(alone.requests);
    expect(beside.waits).toHaveLength(beside.requests);
    for (const wait of beside.waits) expect(wait).toBeLessThan(1_000 / LIMIT.requestsPerSecond / 2);

    abort.abort();
    await backfill;
    const seconds = (Date.now() - started) / 1_000;
    // Backfill and refresh together: no more than the bucket's burst plus its rate over the run.
    expect(shared.draws("bybit")).toBe(backfilled.length + beside.requests);
    expect(backfilled.length + beside.requests).toBeLessThanOrEqual(LIMIT.burst + Math.ceil(seconds * LIMIT.requestsPerSecond) + 1);
    // And the backfill did use the rate the live requests left it.
    expect(backfilled.length).toBeGreaterThan(seconds * LIMIT.requestsPerSecond * 0.5);
  });
});
