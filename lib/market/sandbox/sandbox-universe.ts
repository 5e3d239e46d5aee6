import { normaliseBase } from "../model/normalise-base";
import type { IntervalSource } from "../model/types";
import { VENUE_REGISTRY } from "../venues/venue-registry";
import { ASSET_CATALOGUE } from "./asset-catalogue";
import { SANDBOX_EDGE_CASES } from "./edge-cases";
import { hashText, unitOf } from "./random";
import { DETAILED_VENUE_IDS, SANDBOX_VENUE_IDS, VENUE_PROFILES, type SandboxVenueId, type VenueProfile } from "./venue-profiles";

/** One market of one asset on one venue, everything about it that does not change with time. */
export interface UniverseListing {
  venue: SandboxVenueId;
  /** Random-stream key of this market (venue and settlement currency). */
  key: number;
  market: string;
  venueMarketId: string;
  venueBase: string;
  contractMultiplier: number;
  settle: VenueProfile["settle"];
  /** The interval, or on the interval-shift fixture the even days' one (see `intervalHoursAt`). */
  intervalHours: number;
  intervalSource: IntervalSource;
  /** Set on the interval-shift fixture's shifting market: its interval depends on the UTC day. */
  intervalByDay: { evenDays: number; oddDays: number } | null;
  takerFee: number | null;
  pinsToInterestRate: boolean;
  publishesForecast: boolean;
  statesRateBounds: boolean;
  reportsOpenInterest: boolean;
  reportsIndexPrice: boolean;
  /** This market's 24h volume as a fraction of the asset's reference volume. */
  volumeShare: number;
  /** Open interest as a fraction of this market's 24h volume. */
  openInterestRatio: number;
  /** Set on the negative-funding fixture: its 8h rate stays in [−floor − 0.0004, −floor]. */
  negativeFloor8h: number | null;
}

/** One asset and the structure the seed does not change: listings, intervals, size, temperament. */
export interface UniverseAsset {
  base: string;
  /** 1 = largest; scales volume and open interest. */
  rank: number;
  key: number;
  referencePrice: number;
  /** Amplitude of the log-price wander (0.08 ≈ ±8 % at the extremes). */
  priceVolatility: number;
  /** Scale of the funding premium, decimal per 8h; fat-tailed across assets. */
  premiumScale: number;
  /** Lean of the premium in units of `premiumScale`: positive assets are mostly paid by longs. */
  premiumBias: number;
  /** How far venues disagree on the premium, decimal per 8h. */
  venueDispersion: number;
  /** Binance-sized 24h volume of the asset in USD, before time variation. */
  referenceVolumeUsd: number;
  /** Always generated, whatever `assets` asks for, because the edge cases live on them. */
  pinned: boolean;
  listings: readonly UniverseListing[];
}

/*
 * Structure is hashed from a fixed key rather than the caller's seed so that the listings, intervals
 * and edge cases a README promises hold for every seed; the seed only moves the numbers.
 */
const STRUCTURE_KEY = hashText("sandbox-structure-v1");
const Trait = {
  Listed: 1,
  Interval: 2,
  Volatility: 3,
  PremiumScale: 4,
  PremiumBias: 5,
  Volume: 6,
  VolumeShare: 7,
  OpenInterest: 8,
} as const;
type Trait = (typeof Trait)[keyof typeof Trait];

/** Assets this large are listed on the six detailed venues on an 8h schedule, as the majors are. */
const MAJOR_RANK = 20;
/**
 * Assets this large (BTC, ETH, SOL) are listed on every venue. The other venues list the rest
 * sparsely: each venue on every major would multiply the pairs the sandbox ranks every minute.
 */
const EVERYWHERE_RANK = 3;
/** Below this price Binance, Bybit and Hyperliquid quote per 1000 tokens. */
const BUNDLE_BELOW_USD = 0.001;
const USDC_TWIN_BASES: ReadonlySet<string> = new Set(["BTC", "ETH"]);
/** Binance and Bybit also list USDC-settled BTC and ETH, far thinner than the USDT ones. */
const USDC_TWIN_IDS: Partial<Record<SandboxVenueId, (base: string) => string>> = {
  binance: (base) => `${base}USDC`,
  bybit: (base) => `${base}PERP`,
};
const USDC_TWIN_VOLUME = 0.06;

const { negativeFunding, singleVenue, hourlyFunding, intervalShift, bundled } = SANDBOX_EDGE_CASES;
const FIXED_VENUES: ReadonlyMap<string, readonly SandboxVenueId[]> = new Map<string, readonly SandboxVenueId[]>([
  [negativeFunding.base, negativeFunding.venues],
  [singleVenue.base, [singleVenue.venue]],
  [hourlyFunding.base, hourlyFunding.venues],
  [intervalShift.base, intervalShift.venues],
  [bundled.base, SANDBOX_VENUE_IDS],
]);
const PINNED: ReadonlySet<string> = new Set(["BTC", "ETH", ...FIXED_VENUES.keys()]);

export const SANDBOX_UNIVERSE: readonly UniverseAsset[] = buildUniverse();

function buildUniverse(): UniverseAsset[] {
  const venueKeys = new Map(SANDBOX_VENUE_IDS.map((venue) => [venue, hashText(venue)]));
  const counters = new Map<SandboxVenueId, number>(SANDBOX_VENUE_IDS.map((venue) => [venue, 0]));
  return ASSET_CATALOGUE.map(([base, referencePrice], index) => {
    const rank = index + 1;
    const key = hashText(base);
    const trait = (t: Trait, sub = 0) => unitOf(STRUCTURE_KEY, key, t, sub);
    const listings: UniverseListing[] = [];
    for (const venue of listedVenues(base, rank, key, venueKeys)) {
      const profile = VENUE_PROFILES[venue];
      const venueKey = venueKeys.get(venue) ?? 0;
      const shifting = base === intervalShift.base && venue === intervalShift.venue;
      const hours = shifting ? intervalShift.hours.evenDays : intervalHours(base, rank, venue, unitOf(STRUCTURE_KEY, key, venueKey, Trait.Interval));
      const bundle = referencePrice < BUNDLE_BELOW_USD ? profile.bundlePrefix : null;
      const venueBase = bundle === null ? base : `${bundle}${base}`;
      const markets: Array<{ settle: VenueProfile["settle"]; id: string; volume: number }> = [
        { settle: profile.settle, id: profile.marketId(venueBase, nextIndex(counters, venue)), volume: 1 },
      ];
      const twinId = USDC_TWIN_BASES.has(base) ? USDC_TWIN_IDS[venue] : undefined;
      if (twinId) markets.push({ settle: "USDC", id: twinId(venueBase), volume: USDC_TWIN_VOLUME });
      for (const market of markets) {
        const marketKey = market.settle === profile.settle ? venueKey : hashText(`${venue}:${market.settle}`);
        listings.push({
          venue,
          key: marketKey,
          market: `${profile.symbolBase(venueBase)}/${market.settle}:${market.settle}`,
          venueMarketId: market.id,
          venueBase,
          contractMultiplier: normaliseBase(venueBase).multiplier,
          settle: market.settle,
          intervalHours: hours,
          intervalSource: profile.intervalSource(hours),
          intervalByDay: shifting ? intervalShift.hours : null,
          takerFee: profile.takerFee,
          pinsToInterestRate: profile.pinsToInterestRate,
          publishesForecast: profile.publishesForecast,
          statesRateBounds: profile.statesRateBounds(profile.intervalSource(hours)),
          reportsOpenInterest: profile.reportsOpenInterest,
          reportsIndexPrice: profile.reportsIndexPrice,
          volumeShare: profile.volumeShare * (0.6 + 0.8 * unitOf(STRUCTURE_KEY, key, marketKey, Trait.VolumeShare)) * market.volume,
          openInterestRatio: 0.25 + 0.5 * unitOf(STRUCTURE_KEY, key, marketKey, Trait.OpenInterest),
          negativeFloor8h: base === negativeFunding.base ? (venue === negativeFunding.venue ? 0.0012 : 0.0003) : null,
        });
      }
    }
    // A fat tail: most assets' premium stays within a few bps, a few swing by tenths of a percent.
    const premiumScale = rank <= 2 ? 0.00008 : Math.min(0.003, 0.00007 * (1 / (1 - trait(Trait.PremiumScale))) ** 0.85);
    return {
      base,
      rank,
      key,
      referencePrice,
      priceVolatility: rank === 1 ? 0.08 : rank === 2 ? 0.1 : 0.12 + 0.18 * trait(Trait.Volatility),
      premiumScale,
      premiumBias: trait(Trait.PremiumBias) - 0.4,
      venueDispersion: 0.25 * premiumScale + 0.00003,
      referenceVolumeUsd: 2.5e10 * rank ** -1.55 * (0.7 + 0.6 * trait(Trait.Volume)),
      pinned: PINNED.has(base),
      listings,
    };
  });
}

const DAY_MS = 86_400_000;

/** The listing's funding interval at `at` (epoch ms): the interval-shift fixture's changes at every UTC midnight. */
export function intervalHoursAt(listing: UniverseListing, at: number): number {
  const byDay = listing.intervalByDay;
  if (!byDay) return listing.intervalHours;
  return Math.floor(at / DAY_MS) % 2 === 1 ? byDay.oddDays : byDay.evenDays;
}

/**
 * When the listing's interval last changed, at or before `at`: for the interval-shift fixture the
 * last UTC midnight (its two intervals differ, so every midnight is a change); null otherwise.
 */
export function intervalChangedAt(listing: UniverseListing, at: number): number | null {
  return listing.intervalByDay ? Math.floor(at / DAY_MS) * DAY_MS : null;
}

/** Venues listing `base`, in SANDBOX_VENUE_IDS order; every non-fixture asset is on at least two. */
function listedVenues(base: string, rank: number, key: number, venueKeys: ReadonlyMap<SandboxVenueId, number>): SandboxVenueId[] {
  const fixed = FIXED_VENUES.get(base);
  if (fixed) return SANDBOX_VENUE_IDS.filter((venue) => fixed.includes(venue));
  const listed = SANDBOX_VENUE_IDS.filter(
    (venue) =>
      rank <= (DETAILED_VENUE_IDS.has(venue) ? MAJOR_RANK : EVERYWHERE_RANK) ||
      unitOf(STRUCTURE_KEY, key, venueKeys.get(venue) ?? 0, Trait.Listed) < listingOdds(venue, rank),
  );
  if (listed.length >= 2) return listed;
  return SANDBOX_VENUE_IDS.filter((venue) => listed.includes(venue) || venue === "binance" || venue === "bybit");
}

function listingOdds(venue: SandboxVenueId, rank: number): number {
  switch (venue) {
    case "binance":
      return 0.9;
    case "bybit":
      return 0.93;
    case "okx":
      return rank <= 100 ? 0.7 : 0.45;
    case "bitget":
      return 0.85;
    case "gate":
      return 0.95;
    case "hyperliquid":
      return rank <= 100 ? 0.85 : 0.5;
    default:
      // The other venues list fewer of the small assets (and keep the sandbox's pair count near
      // what its one-minute refresh and 30-day history can afford).
      return rank <= 100 ? 0.1 : 0.03;
  }
}

/** Cumulative odds of settling at most every 1h, 2h and 4h, where the venue has those intervals. */
function intervalOdds(venue: SandboxVenueId): readonly [h1: number, h2: number, h4: number] {
  switch (venue) {
    case "binance":
      return [0.04, 0.04, 0.2];
    case "bybit":
      return [0.04, 0.07, 0.22];
    case "okx":
      return [0.02, 0.05, 0.15];
    case "bitget":
      return [0.04, 0.04, 0.2];
    case "gate":
      return [0.05, 0.05, 0.25];
    default:
      return [0.03, 0.05, 0.18];
  }
}

/**
 * Mostly 8h; smaller assets sometimes settle every 4h, 2h or 1h where the venue has those intervals
 * (VENUE_REGISTRY); a venue with one interval (hourly Hyperliquid, dYdX, Lighter, Extended; 8h
 * Deribit, Paradex, BitMEX) always settles on it.
 */
function intervalHours(base: string, rank: number, venue: SandboxVenueId, draw: number): number {
  const allowed = VENUE_REGISTRY[venue].intervalsHours;
  if (allowed.length === 1) return allowed[0] ?? 8;
  if (base === hourlyFunding.base) return (hourlyFunding.hourlyVenues as readonly SandboxVenueId[]).includes(venue) ? 1 : 8;
  if (rank <= MAJOR_RANK || FIXED_VENUES.has(base)) return 8;
  const [h1, h2, h4] = intervalOdds(venue);
  const hours = draw < h1 ? 1 : draw < h2 ? 2 : draw < h4 ? 4 : 8;
  return allowed.includes(hours) ? hours : 8;
}

function nextIndex(counters: Map<SandboxVenueId, number>, venue: SandboxVenueId): number {
  const index = counters.get(venue) ?? 0;
  counters.set(venue, index + 1);
  return index;
}
