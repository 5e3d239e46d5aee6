import { describe, expect, it } from "vitest";
import { computeOpportunities } from "../../opportunities/rank-opportunities";
import { replayVenue } from "@/tests/support/market/replay-venue";
import { SAMPLE_VENUE_IDS } from "@/tests/fixtures/venues/sample-venue-responses";
import { VENUE_REPLAYS } from "@/tests/fixtures/venues/venue-replay-table";
import { opportunitySchema, type MarketSnapshot } from "../../model/types";

// The venues' captures are from different days (2023-10 to 2026-09), so the numbers are not one
// market moment; what is tested is that symbols from every payload format of the offline sample
// meet. The payloads are those of the offline sample.
async function allSnapshots(): Promise<MarketSnapshot[]> {
  const results = await Promise.all(SAMPLE_VENUE_IDS.map((venue) => replayVenue(venue, VENUE_REPLAYS[venue]())));
  return results.flatMap(({ result }) => {
    if (result.status !== "ok") throw new Error(`${result.exchange} stale: ${result.error}`);
    return result.snapshots;
  });
}

describe("snapshots from every connector of the offline sample", () => {
  it("meet on the same base asset whatever each venue calls it", async () => {
    const snapshots = await allSnapshots();
    const venuesFor = (base: string) =>
      [...new Set(snapshots.filter((snapshot) => snapshot.base === base).map((snapshot) => snapshot.exchange))].sort();
    // Every venue's recordings include its BTC perpetual, whatever the venue calls it (XBT on BitMEX).
    const venues = [...SAMPLE_VENUE_IDS].sort();
    expect(venuesFor("BTC")).toEqual(venues);
    // 1000PEPEUSDC (Binance), 1000PEPEUSDT (Bybit), PEPEUSDT (Bitget), PEPE_USDT (Gate), 1MPEPE-PERP
    // (Drift), 1000PEPE (Variational), 1000PEPEUSDC (edgeX).
    expect(venuesFor("PEPE")).toEqual(["binance", "bitget", "bybit", "drift", "edgex", "gate", "variational"]);

    const scan = computeOpportunities(snapshots);
    const ids = scan.opportunities.map((opportunity) => opportunity.id);
    expect(ids.filter((id) => id.startsWith("BTC-"))).toHaveLength((venues.length * (venues.length - 1)) / 2);
    expect(ids.filter((id) => id.startsWith("PEPE-"))).toHaveLength(21);
    // Second markets of one venue for one asset stand behind the first: Bybit's and Bitget's BTC/USDC
    // perpetuals, and Binance's USDC twins of SOL, DOGE, LINK, ENA and 1000BONK. Bitget's ETH has
    // no rate.
    expect(scan.skipped).toEqual({ missingRate: 1, unknownInterval: 0, shadowed: 7, priceOutliers: 0 });
    for (const opportunity of scan.opportunities) {
      expect(opportunitySchema.parse(opportunity)).toEqual(opportunity);
      expect(opportunity.long.exchange).not.toBe(opportunity.short.exchange);
      expect(opportunity.apr).toBeGreaterThanOrEqual(0);
    }
  });

  it("annualises mixed intervals correctly on real rows", async () => {
    const { opportunities } = computeOpportunities(await allSnapshots());
    const byId = new Map(opportunities.map((opportunity) => [opportunity.id, opportunity]));
    // Hyperliquid BTC 0.0000125/1h = 10.95 %/yr; Bybit BTC 0.0000501/8h = 5.48595 %/yr.
    const btc = byId.get("BTC-bybit-hyperliquid");
    expect(btc?.apr).toBeCloseTo(10.95 - 5.48595, 6);
    // Published base-tier fees 0.055 % (Bybit) + 0.045 % (Hyperliquid), four fills over 7 days:
    // 2 × 0.001 × 365 / 7 × 100 = 10.428571 %/yr.
    expect(btc?.net_apr).toBeCloseTo(10.95 - 5.48595 - (2 * 0.001 * 365 * 100) / 7, 6);
    expect(btc?.funding_spread_8h).toBeCloseTo(0.0001 - 0.0000501, 12);
    // OKX ETH −0.0000421/4h = −9.2199 %/yr against Hyperliquid's 10.95 %/yr.
    expect(byId.get("ETH-okx-hyperliquid")?.apr).toBeCloseTo(10.95 + 9.2199, 6);
  });
});
