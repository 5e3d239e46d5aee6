// Seeds an embedded data directory with a week of market history through the real ingestion
// pipeline, for the screener's end-to-end spec (a server owns its PGlite, so the data must be
// there before it starts):
//   node --import tsx e2e/helpers/seed-screener-market.ts <data dir>
// Hourly rounds over the last 7 days end with one 20 minutes ago (what Free accounts see) and one
// a minute ago (the live set), which alone lists LINK so a test can tell the two sets apart. In
// that round Hyperliquid serves LINK from a refresh five minutes old, so LINK's pairs with it have
// no price spread (their legs were observed apart), and OKX serves XRP from one 18 minutes old
// (still after the round before), older than the seeded server's staleness threshold
// (seeded-market-server.ts), so that leg is stale.
import { openDatabase } from "@/lib/db/open-database";
import type { VenueFetcher } from "@/lib/market/venues/fetch-all-venues";
import { runIngestionRound } from "@/lib/market/ingest/run-ingestion-round";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import type { MarketSnapshot, VenueId } from "@/lib/market/model/types";

const HOUR = 3_600_000;
const VENUES: readonly { id: VenueId; intervalHours: number; quote: string }[] = [
  { id: "binance", intervalHours: 8, quote: "USDT" },
  { id: "bybit", intervalHours: 4, quote: "USDT" },
  { id: "okx", intervalHours: 8, quote: "USDT" },
  { id: "hyperliquid", intervalHours: 1, quote: "USDC" },
];
const ASSETS: Record<string, number> = { BTC: 97_250, ETH: 3_410, SOL: 182.4, DOGE: 0.3812, XRP: 2.391 };
const LIVE_ONLY_ASSET = { base: "LINK", price: 22.15 };
const LAGGING = { venue: "hyperliquid", base: LIVE_ONLY_ASSET.base, byMs: 5 * 60_000 };
const STALE = { venue: "okx", base: "XRP", byMs: 18 * 60_000 };

/** Funding in percent per year: a level per venue and asset plus a slow daily swing. */
function annualPct(venue: number, asset: number, at: number): number {
  return 4 + 6.5 * venue + 2.5 * asset - 3 * ((venue * asset) % 3) + 4 * Math.sin(at / (6 * HOUR) + venue + asset);
}

/** How much older than the round a venue serves an asset: only in the live round, which alone lists LINK. */
function lagOf(venue: VenueId, base: string, live: boolean): number {
  const lagging = [LAGGING, STALE].find((l) => l.venue === venue && l.base === base);
  return live && lagging ? lagging.byMs : 0;
}

function snapshotsAt(at: number, withLiveOnly: boolean): Map<VenueId, MarketSnapshot[]> {
  const assets = Object.entries(ASSETS);
  if (withLiveOnly) assets.push([LIVE_ONLY_ASSET.base, LIVE_ONLY_ASSET.price]);
  const byVenue = new Map<VenueId, MarketSnapshot[]>();
  VENUES.forEach((venue, v) => {
    const intervalMs = venue.intervalHours * HOUR;
    byVenue.set(
      venue.id,
      assets.map(([base, price], a) => {
        const mark = price * (1 + (v - 1.5) * 0.0002);
        return makeSnapshot({
          exchange: venue.id,
          base,
          market: `${base}/${venue.quote}:${venue.quote}`,
          venueMarketId: `${base}${venue.quote}`,
          venueBase: base,
          quote: venue.quote,
          settle: venue.quote,
          fundingRate: Number(((annualPct(v, a, at) / 100) * (venue.intervalHours / 8760)).toFixed(8)),
          fundingIntervalHours: venue.intervalHours,
          nextFundingAt: (Math.floor(at / intervalMs) + 1) * intervalMs,
          markPrice: mark,
          indexPrice: price,
          openInterestUsd: venue.id === "binance" ? null : 40_000_000 / (a + 1) + 3_000_000 * v,
          volume24hUsd: 900_000_000 / (a + 1) + 50_000_000 * v,
          takerFee: venue.id === "hyperliquid" ? 0.00045 : 0.0005,
          observedAt: at - lagOf(venue.id, base, withLiveOnly),
        });
      }),
    );
  });
  return byVenue;
}

async function main() {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error("usage: seed-screener-market.ts <data dir>");
  const now = Date.now();
  const delayedAt = now - 20 * 60_000;
  const times = Array.from({ length: 7 * 24 - 1 }, (_, i) => delayedAt - (7 * 24 - 1 - i) * HOUR);
  times.push(delayedAt, now - 60_000);
  const opened = await openDatabase({ driver: "pglite", dataDir });
  try {
    for (const at of times) {
      const markets = snapshotsAt(at, at === times.at(-1));
      const fetcher: VenueFetcher = async (venue) => ({
        status: "ok",
        exchange: venue,
        fetchedAt: at,
        snapshots: markets.get(venue) ?? [],
        excluded: { notLinearPerp: 0, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
        warnings: [],
      });
      const outcome = await runIngestionRound({
        db: opened.db,
        fetcher,
        timeoutMs: 5_000,
        venues: VENUES.map((v) => v.id),
        retention: { rawDays: 7, hourlyDays: 730 },
        now: () => at,
      });
      if (outcome.status !== "published") throw new Error(`round at ${new Date(at).toISOString()} ${outcome.status}: ${outcome.error}`);
    }
    const settlements = await opened.db.fundingRate.count();
    console.log(`seeded ${times.length} rounds, ${settlements} settlements, live set ${new Date(times.at(-1)!).toISOString()}`);
  } finally {
    await opened.close();
  }
}

await main();
