// Generated, realistic live opportunities for the benchmark: synthetic venue snapshots of real-looking
// assets, ranked by the service's own computeOpportunities, so items have the shape and magnitudes
// of a live ingestion round (null open interest on Binance, 1 h Hyperliquid legs, USDC settlement).
import { computeOpportunities } from "@/lib/market/opportunities/rank-opportunities";
import { ASSET_CATALOGUE } from "@/lib/market/sandbox/asset-catalogue";
import { SANDBOX_VENUE_IDS, VENUE_PROFILES } from "@/lib/market/sandbox/venue-profiles";
import { opportunitySchema, type MarketSnapshot, type Opportunity } from "@/lib/market/model/types";

/** Deterministic PRNG (mulberry32), so every benchmark run serves the same data. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const HOUR_MS = 3_600_000;

/** `count` opportunities, best APR first; every item passes `opportunitySchema`. */
export function benchOpportunities(count: number, observedAt = Date.UTC(2026, 10, 21, 15, 59)): Opportunity[] {
  const rand = random(20261121);
  const venues = SANDBOX_VENUE_IDS.length;
  const pairsPerAsset = (venues * (venues - 1)) / 2;
  const assetCount = Math.ceil(count / pairsPerAsset);
  if (assetCount > ASSET_CATALOGUE.length) throw new Error(`at most ${ASSET_CATALOGUE.length * pairsPerAsset} opportunities`);

  const snapshots: MarketSnapshot[] = [];
  ASSET_CATALOGUE.slice(0, assetCount).forEach(([base, referencePrice], rank) => {
    const size = 1 / (1 + rank / 8); // bigger assets trade more
    SANDBOX_VENUE_IDS.forEach((exchange, venueIndex) => {
      const profile = VENUE_PROFILES[exchange];
      const hours = exchange === "hyperliquid" ? 1 : rand() < 0.2 ? 4 : 8;
      const drift = (rand() - 0.35) * 0.0012 * (hours / 8);
      const rate = profile.pinsToInterestRate && rand() < 0.5 ? 0.0001 * (hours / 8) : Number(drift.toFixed(8));
      const mark = referencePrice * (1 + (rand() - 0.5) * 0.002);
      const volume = Math.round(2e9 * size * profile.volumeShare * (0.5 + rand()));
      const nextFunding = Math.ceil(observedAt / (hours * HOUR_MS)) * hours * HOUR_MS;
      snapshots.push({
        exchange,
        market: `${profile.symbolBase(base)}/${profile.settle}:${profile.settle}`,
        venueMarketId: profile.marketId(base, rank),
        base,
        venueBase: base,
        contractMultiplier: 1,
        quote: profile.settle,
        settle: profile.settle,
        fundingRate: rate,
        fundingIntervalHours: hours,
        fundingIntervalSource: profile.intervalSource(hours),
        nextFundingAt: nextFunding,
        markPrice: Number(mark.toPrecision(6)),
        indexPrice: profile.reportsIndexPrice ? Number(referencePrice.toPrecision(6)) : null,
        openInterestUsd: profile.reportsOpenInterest ? Math.round(volume * (0.2 + rand() * 0.6)) : null,
        volume24hUsd: volume,
        takerFee: profile.takerFee,
        observedAt: observedAt - Math.floor(rand() * 20_000) - venueIndex * 1_000,
      });
    });
  });

  const { opportunities } = computeOpportunities(snapshots);
  if (opportunities.length < count) throw new Error(`only ${opportunities.length} opportunities generated`);
  return opportunities.slice(0, count).map((item) => opportunitySchema.parse(item));
}
