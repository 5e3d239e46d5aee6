import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenDatabase } from "@/lib/db/open-database";
import { runIngestionRound } from "@/lib/market/ingest/run-ingestion-round";
import { readPairingExclusions } from "@/lib/market/ingest/pairing-exclusions-store";
import { loadItems } from "@/lib/market/opportunities/store";
import { DEFAULT_PAIR_PRICE_BOUND } from "@/lib/market/model/price-bound";
import type { MarketSnapshot, VenueId } from "@/lib/market/model/types";
import { buildSnapshot } from "@/lib/market/venues/connectors/build-snapshot";
import { createTestDatabase } from "@/tests/support/test-database";
import { snapshotFetcher } from "./helpers/venue-fetchers";

let database: OpenDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

/**
 * A venue's NEIRO perpetual as its connector builds it (buildSnapshot: the bundle split off, then the
 * asset map): Binance's NEIRO, Hyperliquid's kNEIRO and Bybit's 1000NEIROCTO are one token; the NEIRO
 * Gate is given here is Neiro Ethereum, another token priced in cents (magnitudes of 2025's quotes).
 */
function neiro(exchange: VenueId, venueBase: string, markPrice: number, fundingRate: number, now: number): MarketSnapshot {
  const symbol = `${venueBase}/USDT:USDT`;
  const market = { id: `${venueBase}USDT`, symbol, base: venueBase, quote: "USDT", settle: "USDT", swap: true, linear: true, expiry: undefined, active: true, taker: 0.0005 };
  const observation = { symbol, fundingRate, interval: { hours: 8, source: "venue" as const }, nextFundingAt: now + 3_600_000, markPrice, observedAt: now };
  return buildSnapshot(exchange, market, observation, now)!;
}

describe("a round with the price bound", () => {
  it("pairs no leg whose price strays from its asset's, and lists it per venue with the asset's median", async () => {
    const { db } = database;
    const now = Date.now();
    const markets: Partial<Record<VenueId, MarketSnapshot[]>> = {
      binance: [neiro("binance", "NEIRO", 0.00045, 0.0001, now)],
      hyperliquid: [neiro("hyperliquid", "kNEIRO", 0.45, 0.0002, now)],
      bybit: [neiro("bybit", "1000NEIROCTO", 0.452, -0.0001, now)],
      gate: [neiro("gate", "NEIRO", 0.051, 0.003, now)],
    };
    // The map and the bundle sizes make them one asset before the bound looks at them.
    expect(Object.values(markets).map(([s]) => [s!.base, s!.contractMultiplier])).toEqual([
      ["NEIRO", 1],
      ["NEIRO", 1000],
      ["NEIRO", 1000],
      ["NEIRO", 1],
    ]);
    const outcome = await runIngestionRound({
      db,
      fetcher: snapshotFetcher((venue) => markets[venue] ?? []),
      timeoutMs: 5_000,
      retention: { rawDays: 7, hourlyDays: 730 },
      priceBound: DEFAULT_PAIR_PRICE_BOUND,
    });
    expect(outcome.status).toBe("published");
    const ids = (await loadItems(db)).map((o) => o.id).sort();
    expect(ids).toEqual(["NEIRO-binance-hyperliquid", "NEIRO-bybit-binance", "NEIRO-bybit-hyperliquid"]);

    expect(await readPairingExclusions(db)).toEqual({
      round_id: outcome.roundId,
      round_started_at: expect.any(String),
      price_bound: DEFAULT_PAIR_PRICE_BOUND,
      venues: [
        {
          exchange: "gate",
          excluded: 1,
          legs: [
            {
              exchange: "gate",
              market: "NEIRO/USDT:USDT",
              venue_base: "NEIRO",
              asset: "NEIRO",
              unit_price: 0.051,
              median_price: (0.00045 + 0.000452) / 2,
            },
          ],
        },
      ],
    });
  }, 60_000);
});
