import { roundTo } from "@/lib/round";
import { VENUE_IDS, type MarketSnapshot } from "../model/types";
import type { SandboxVenueId } from "./venue-profiles";
import { SANDBOX_EDGE_CASES } from "./edge-cases";
import { hashText, mixKeys, unitOf } from "./random";
import { intervalChangedAt, intervalHoursAt, SANDBOX_UNIVERSE, type UniverseAsset, type UniverseListing } from "./sandbox-universe";
import { smoothNoise } from "./smooth-noise";
import { MINUTE_MS, utcMinute } from "./utc-minute";

export const DEFAULT_SANDBOX_SEED = "sandbox";
/** Every asset the sandbox knows; also the default `assets`. */
export const SANDBOX_ASSET_COUNT = SANDBOX_UNIVERSE.length;
/** The fewest `assets` allowed: BTC, ETH and the assets carrying the edge cases. */
export const SANDBOX_MIN_ASSETS = SANDBOX_UNIVERSE.filter((asset) => asset.pinned).length;

export interface SandboxMarketOptions {
  /** Any string; a different seed gives different prices and rates on the same listings. */
  seed?: string;
  /** How many assets, largest first (edge-case assets always included); default all. */
  assets?: number;
}

export interface SandboxVenueStatus {
  id: SandboxVenueId;
  status: "ok" | "stale";
  /** ISO 8601 UTC of the venue's last successful refresh. */
  lastSuccessAt: string;
}

export interface SandboxMarket {
  /** ISO 8601 UTC start of the minute the market was generated for. */
  asOf: string;
  /** Catalogue order (largest asset first), then SANDBOX_VENUE_IDS order, USDT before USDC. */
  snapshots: MarketSnapshot[];
  /**
   * One entry per live venue (VENUE_IDS order), so test keys see the venue set production serves;
   * the venues the sandbox leaves out (SANDBOX_LEFT_OUT) answer with no market.
   */
  venues: SandboxVenueStatus[];
}

/** The interest component every venue uses: 0.01 % per 8h. */
const INTEREST_8H = 0.0001;
/** Binance and Bybit clamp (interest − premium) to ±0.05 % per 8h, so small premiums vanish. */
const INTEREST_CLAMP_8H = 0.0005;
/** Venues cap funding; ±0.75 %/8h keeps the tail fat (≈ 820 % APR) without absurd numbers. */
const FUNDING_CAP_8H = 0.0075;
/** Width of the negative-funding fixture's band below its floor. */
const NEGATIVE_BAND_8H = 0.0004;
/** The stale venue's outage windows; within one its last success does not move, as in a real outage. */
const STALE_WINDOW_MINUTES = 30;
/** The stale venue has been failing for at least this long, so it is stale by any sensible threshold. */
const STALE_MIN_LAG_MINUTES = 10;

const Stream = {
  Price: 1,
  PriceJitter: 2,
  Sentiment: 3,
  Volume: 4,
  VenuePremium: 5,
  PremiumJitter: 6,
  MarkBasis: 7,
  MarkJitter: 8,
  IndexJitter: 9,
  OpenInterest: 10,
} as const;

/**
 * A whole sandbox market for the UTC minute containing `at`. Pure: the same seed and minute give a
 * byte-identical result; consecutive minutes differ by small, smooth steps (see README.md).
 */
export function generateSandboxMarket(at: Date, options: SandboxMarketOptions = {}): SandboxMarket {
  const minute = utcMinute(at);
  const seedKey = hashText(options.seed ?? DEFAULT_SANDBOX_SEED);
  const assets = selectAssets(options.assets ?? SANDBOX_ASSET_COUNT);
  const staleMinute = Math.max(
    0,
    Math.floor((minute - STALE_MIN_LAG_MINUTES) / STALE_WINDOW_MINUTES) * STALE_WINDOW_MINUTES,
  );
  const minuteOf = (venue: SandboxVenueId) => (venue === SANDBOX_EDGE_CASES.staleVenue ? staleMinute : minute);

  const snapshots: MarketSnapshot[] = [];
  for (const asset of assets) {
    // The stale venue's listings are generated at its last good minute, so an asset has up to two states.
    const states = new Map<number, AssetState>();
    for (const listing of asset.listings) {
      const listingMinute = minuteOf(listing.venue);
      let state = states.get(listingMinute);
      if (!state) {
        state = assetState(asset, seedKey, listingMinute);
        states.set(listingMinute, state);
      }
      snapshots.push(snapshotOf(asset, listing, state, seedKey, listingMinute));
    }
  }
  return {
    asOf: new Date(minute * MINUTE_MS).toISOString(),
    snapshots,
    venues: VENUE_IDS.map((id) => ({
      id,
      status: id === SANDBOX_EDGE_CASES.staleVenue ? "stale" : "ok",
      lastSuccessAt: new Date(minuteOf(id) * MINUTE_MS).toISOString(),
    })),
  };
}

/** One fresh listing's funding at one minute, as generateSandboxMarket reports it. */
export interface SandboxFunding {
  exchange: SandboxVenueId;
  market: string;
  base: string;
  fundingRate: number;
  fundingIntervalHours: number;
  nextFundingAt: number;
}

/**
 * The funding of every listing on the venues that are not stale, for the minute containing `at`:
 * the `fundingRate`, `fundingIntervalHours` and `nextFundingAt` generateSandboxMarket gives those
 * snapshots, in the same order, without prices, volumes and the rest. About a tenth of its cost,
 * which is what lets the sandbox hold 30 days of hourly history (sandbox-hourly-funding.ts).
 */
export function generateSandboxFunding(at: Date, options: SandboxMarketOptions = {}): SandboxFunding[] {
  const minute = utcMinute(at);
  const seedKey = hashText(options.seed ?? DEFAULT_SANDBOX_SEED);
  const funding: SandboxFunding[] = [];
  for (const asset of selectAssets(options.assets ?? SANDBOX_ASSET_COUNT)) {
    let sentiment: number | undefined;
    for (const listing of asset.listings) {
      if (listing.venue === SANDBOX_EDGE_CASES.staleVenue) continue;
      sentiment ??= assetSentiment(asset, seedKey, minute);
      const stream = (s: number) => mixKeys(seedKey, asset.key, listing.key, s);
      const { rate, hours, nextFundingAt } = listingFunding(asset, listing, sentiment, stream, minute);
      funding.push({ exchange: listing.venue, market: listing.market, base: asset.base, fundingRate: rate, fundingIntervalHours: hours, nextFundingAt });
    }
  }
  return funding;
}

function selectAssets(count: number): readonly UniverseAsset[] {
  if (!Number.isInteger(count) || count < SANDBOX_MIN_ASSETS || count > SANDBOX_ASSET_COUNT) {
    throw new RangeError(`assets must be an integer from ${SANDBOX_MIN_ASSETS} to ${SANDBOX_ASSET_COUNT}, got ${count}`);
  }
  let others = count - SANDBOX_MIN_ASSETS;
  return SANDBOX_UNIVERSE.filter((asset) => asset.pinned || others-- > 0);
}

/** What every venue of an asset shares at one minute: the asset's price and market mood. */
interface AssetState {
  unitPrice: number;
  sentiment: number;
  volumeFactor: number;
}

function assetState(asset: UniverseAsset, seedKey: number, minute: number): AssetState {
  const stream = (s: number) => mixKeys(seedKey, asset.key, s);
  const wander = asset.priceVolatility * smoothNoise(stream(Stream.Price), minute);
  const jitter = 0.0002 * signedUnit(stream(Stream.PriceJitter), minute);
  return {
    unitPrice: asset.referencePrice * Math.exp(wander + jitter),
    sentiment: assetSentiment(asset, seedKey, minute),
    volumeFactor: Math.exp(0.3 * smoothNoise(stream(Stream.Volume), minute)),
  };
}

/** The asset's market mood at a minute, shared by its venues' funding. */
function assetSentiment(asset: UniverseAsset, seedKey: number, minute: number): number {
  return smoothNoise(mixKeys(seedKey, asset.key, Stream.Sentiment), minute);
}

/** A listing's funding at a minute: its 8h-equivalent rate, the rate per its interval, the interval and the next settlement. */
function listingFunding(
  asset: UniverseAsset,
  listing: UniverseListing,
  sentiment: number,
  stream: (s: number) => number,
  minute: number,
): { rate8h: number; rate: number; hours: number; nextFundingAt: number } {
  const observedAt = minute * MINUTE_MS;
  const hours = intervalHoursAt(listing, observedAt);
  // The interval-shift fixture settles hourly on the days it sits at its cap, as Binance moves a
  // contract settling at its cap to 1h.
  const cappedToday = listing.intervalByDay !== null && hours === listing.intervalByDay.oddDays;
  const rate8h = cappedToday ? FUNDING_CAP_8H : funding8h(asset, listing, sentiment, stream, minute);
  const intervalMs = hours * 3_600_000;
  return { rate8h, rate: roundTo((rate8h * hours) / 8, 8), hours, nextFundingAt: (Math.floor(observedAt / intervalMs) + 1) * intervalMs };
}

function snapshotOf(
  asset: UniverseAsset,
  listing: UniverseListing,
  state: AssetState,
  seedKey: number,
  minute: number,
): MarketSnapshot {
  const stream = (s: number) => mixKeys(seedKey, asset.key, listing.key, s);
  const observedAt = minute * MINUTE_MS;
  const { rate8h, rate, hours, nextFundingAt } = listingFunding(asset, listing, state.sentiment, stream, minute);
  const bound = listing.statesRateBounds ? roundTo((FUNDING_CAP_8H * hours) / 8, 8) : null;
  const venueUnitPrice = state.unitPrice * listing.contractMultiplier;
  // Mark sits above index when longs pay (positive funding), plus a venue's own few-bps basis.
  const basis =
    0.4 * (rate8h - INTEREST_8H) +
    0.0002 * smoothNoise(stream(Stream.MarkBasis), minute) +
    0.00005 * signedUnit(stream(Stream.MarkJitter), minute);
  const volume = asset.referenceVolumeUsd * listing.volumeShare * state.volumeFactor;
  return {
    exchange: listing.venue,
    market: listing.market,
    venueMarketId: listing.venueMarketId,
    base: asset.base,
    venueBase: listing.venueBase,
    contractMultiplier: listing.contractMultiplier,
    quote: listing.settle,
    settle: listing.settle,
    fundingRate: rate,
    predictedFundingRate: listing.publishesForecast ? rate : null,
    rateCap: bound,
    rateFloor: bound === null ? null : -bound,
    fundingIntervalHours: hours,
    fundingIntervalSource: listing.intervalSource,
    nextFundingAt,
    markPrice: significant(venueUnitPrice * (1 + basis)),
    indexPrice: listing.reportsIndexPrice
      ? significant(venueUnitPrice * (1 + 0.00003 * signedUnit(stream(Stream.IndexJitter), minute)))
      : null,
    openInterestUsd: listing.reportsOpenInterest
      ? Math.round(volume * listing.openInterestRatio * Math.exp(0.15 * smoothNoise(stream(Stream.OpenInterest), minute)))
      : null,
    volume24hUsd: Math.round(volume),
    takerFee: listing.takerFee,
    observedAt,
    intervalChangedAt: intervalChangedAt(listing, observedAt),
  };
}

/** This market's funding as a decimal per 8h, before rescaling to its interval. */
function funding8h(
  asset: UniverseAsset,
  listing: UniverseListing,
  sentiment: number,
  stream: (s: number) => number,
  minute: number,
): number {
  const venueMood = smoothNoise(stream(Stream.VenuePremium), minute);
  if (listing.negativeFloor8h !== null) {
    return -(listing.negativeFloor8h + (NEGATIVE_BAND_8H * (1 + venueMood)) / 2);
  }
  // Premium: the asset's mood (shared by all venues), the venue's own lean, and a little per-minute noise.
  const premium =
    asset.premiumScale * (2.2 * sentiment + asset.premiumBias) +
    asset.venueDispersion * (2 * venueMood + 0.1 * signedUnit(stream(Stream.PremiumJitter), minute));
  const rate = INTEREST_8H + (listing.pinsToInterestRate ? softThreshold(premium, INTEREST_CLAMP_8H) : premium);
  return Math.max(-FUNDING_CAP_8H, Math.min(FUNDING_CAP_8H, rate));
}

/** premium + clamp(interest − premium, ±c) − interest, i.e. the premium with ±c cut out. */
function softThreshold(value: number, width: number): number {
  return Math.sign(value) * Math.max(0, Math.abs(value) - width);
}

/** Fresh noise each minute in [−1, 1): the tick-to-tick flicker on top of the smooth drift. */
function signedUnit(key: number, minute: number): number {
  return unitOf(key, minute) * 2 - 1;
}

/** Six significant figures: roughly the tick size venues quote, small against a few bps of basis. */
function significant(value: number): number {
  return Number(value.toPrecision(6));
}
