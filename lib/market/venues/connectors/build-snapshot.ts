import { ASSET_MAP } from "../../model/asset-map";
import { normaliseBase } from "../../model/normalise-base";
import type { IntervalSource, MarketSnapshot, TradingHours, UnderlyingClass } from "../../model/types";
import { venueTakerFee } from "../venue-fees";
import { isValidSnapshot, type SnapshotCandidate } from "./valid-snapshot";

/** The parts of a ccxt market the snapshot needs; kept ccxt-free so this module stays pure. */
export interface VenueMarket {
  id: string;
  symbol: string;
  base: string;
  quote: string;
  settle: string | undefined;
  swap: boolean | undefined;
  linear: boolean | undefined;
  expiry: number | undefined;
  active: boolean | undefined;
  taker: number | undefined;
}

/** A market's funding interval and where it was read from. */
export interface ObservedInterval {
  hours: number;
  source: IntervalSource;
}

/**
 * What a venue said about one market this refresh. A number field is `undefined` when the venue
 * did not send it and `NaN` when it sent something that is not a number. Garbled funding fields
 * (rate, next settlement, time) reject the whole row: a rate next to a garbled timestamp is not to
 * be trusted. Garbled market statistics (prices, open interest, volume) only become `null`, as
 * absent ones do, so a bad volume figure cannot hide a good funding rate.
 */
export interface FundingObservation {
  /** ccxt unified symbol the row was parsed to. */
  symbol: string;
  fundingRate: number | undefined;
  /**
   * The venue's forecast (MarketSnapshot.predictedFundingRate) and bounds on the rate: extras
   * beside the rate, so garbled ones only become null, as statistics do.
   */
  predictedFundingRate?: number | undefined;
  rateCap?: number | undefined;
  rateFloor?: number | undefined;
  interval: ObservedInterval | null;
  nextFundingAt?: number | undefined;
  markPrice?: number | undefined;
  indexPrice?: number | undefined;
  openInterestUsd?: number | undefined;
  volume24hUsd?: number | undefined;
  observedAt?: number | undefined;
  /**
   * A settled figure the payload itself states, for venues whose settlements this service cannot
   * see happen (Deribit's continuous funding: `funding_8h`, the trailing 8 hours' funding, per 8 hours).
   */
  lastSettlement?: { rate: number; at: number } | undefined;
  /** What the market tracks and when it trades, where not a crypto asset around the clock (HIP-3). */
  underlyingClass?: UnderlyingClass | undefined;
  tradingHours?: TradingHours | undefined;
}

/**
 * For venues that quote one rate, the running estimate of the one settling next (Binance's premium
 * index and Aster's copy of it, dYdX's indexer, WOO X): it is both the current rate and the
 * venue's forecast.
 */
export function runningEstimate(rate: number | undefined): Pick<FundingObservation, "fundingRate" | "predictedFundingRate"> {
  return { fundingRate: rate, predictedFundingRate: rate };
}

/** USD stablecoins: USDT, USDC, and the USDH and USDe some Hyperliquid HIP-3 dexes are margined in; carry pairs spot quoted in them (lib/market/carry). */
export const USD_SETTLEMENTS = new Set(["USDT", "USDC", "USDH", "USDE"]);

export type MarketClass = "eligible" | "notLinearPerp" | "inactive";

/**
 * Only perpetuals margined and quoted in a USD stablecoin (USD_SETTLEMENTS) are comparable across venues: inverse
 * contracts pay funding in the coin, delivery contracts pay none, and a BTC-quoted perpetual
 * (`ETHBTC`) has prices in another unit. `alsoDollars` adds a venue's own dollar settlement where
 * it is one (Kraken's multi-collateral `PF_` perpetuals, quoted and settled in USD); it is per
 * venue because elsewhere a USD quote is not a comparable perpetual (Aster's USD-quoted symbols).
 */
export function classifyMarket(market: VenueMarket, alsoDollars: readonly string[] = []): MarketClass {
  const linearPerp =
    market.swap === true &&
    market.linear === true &&
    market.expiry === undefined &&
    isDollar(market.quote, alsoDollars) &&
    market.settle !== undefined &&
    isDollar(market.settle, alsoDollars);
  if (!linearPerp) return "notLinearPerp";
  // ccxt leaves `active` undefined when a venue does not say; only an explicit false excludes.
  return market.active === false ? "inactive" : "eligible";
}

// A function of the module, not a closure made per call: classifyMarket runs for every market
// a venue lists, on every refresh.
function isDollar(code: string, alsoDollars: readonly string[]): boolean {
  return USD_SETTLEMENTS.has(code) || alsoDollars.includes(code);
}

/**
 * What a snapshot takes from its market alone, the same on every refresh of one market list: kept
 * with a kept list (judge-markets.ts), so a refresh does not work it out again for each market.
 */
export interface ListedMarket {
  market: VenueMarket;
  /** The venue's base without its bundle prefix or suffix (`1000PEPE` → `PEPE`), and the bundle's size. */
  bare: string;
  multiplier: number;
  /** The asset a crypto market of this base is paired as (model/asset-map.json). */
  cryptoAsset: string;
  takerFee: number | null;
}

export function listedMarket(exchange: string, market: VenueMarket): ListedMarket {
  const { base: bare, multiplier } = normaliseBase(market.base);
  return {
    market,
    bare,
    multiplier,
    cryptoAsset: ASSET_MAP.assetOf(exchange, bare, undefined),
    // The venue's published base tier; ccxt's market `taker` (a placeholder on several venues) only where none is known.
    takerFee: venueTakerFee(exchange, market.taker),
  };
}

/** Assembles and validates one snapshot (as marketSnapshotSchema would); `null` when a present value is unusable. */
export function buildSnapshot(
  exchange: string,
  market: VenueMarket,
  observation: FundingObservation | undefined,
  fetchedAt: number,
): MarketSnapshot | null {
  return snapshotOf(exchange, listedMarket(exchange, market), observation, fetchedAt);
}

/** `buildSnapshot` from a market's ListedMarket. */
export function snapshotOf(
  exchange: string,
  listed: ListedMarket,
  observation: FundingObservation | undefined,
  fetchedAt: number,
): MarketSnapshot | null {
  const { market } = listed;
  const underlyingClass = observation?.underlyingClass;
  // The asset it is paired as: the maintained map's rename where the ticker names another.
  const base = underlyingClass === undefined ? listed.cryptoAsset : ASSET_MAP.assetOf(exchange, listed.bare, underlyingClass);
  const snapshot: SnapshotCandidate = {
    exchange,
    market: market.symbol,
    venueMarketId: market.id,
    base,
    venueBase: market.base,
    contractMultiplier: listed.multiplier,
    quote: market.quote,
    settle: market.settle,
    fundingRate: orNull(observation?.fundingRate),
    predictedFundingRate: extra(observation?.predictedFundingRate),
    rateCap: extra(observation?.rateCap),
    rateFloor: extra(observation?.rateFloor),
    fundingIntervalHours: observation?.interval?.hours ?? null,
    fundingIntervalSource: observation?.interval?.source ?? null,
    nextFundingAt: zeroAsNull(observation?.nextFundingAt),
    markPrice: statistic(observation?.markPrice, { zeroIsUnknown: true }),
    indexPrice: statistic(observation?.indexPrice, { zeroIsUnknown: true }),
    openInterestUsd: dollars(observation?.openInterestUsd),
    volume24hUsd: dollars(observation?.volume24hUsd),
    takerFee: listed.takerFee,
    observedAt: observation?.observedAt ?? fetchedAt,
  };
  // Added after, not spread in: a spread copies the object for every market of every refresh.
  const writable = snapshot as { -readonly [K in keyof SnapshotCandidate]: SnapshotCandidate[K] };
  if (observation?.lastSettlement !== undefined) writable.lastSettlement = observation.lastSettlement;
  if (underlyingClass !== undefined) writable.underlyingClass = underlyingClass;
  if (observation?.tradingHours !== undefined) writable.tradingHours = observation.tradingHours;
  return isValidSnapshot(snapshot) ? snapshot : null;
}

function extra(value: number | undefined): number | null {
  return value === undefined || !Number.isFinite(value) ? null : value;
}

function orNull(value: number | undefined): number | null {
  return value === undefined ? null : value;
}

// Venues send 0 for "no next settlement" (Binance delivery rows).
function zeroAsNull(value: number | undefined): number | null {
  return value === undefined || value === 0 ? null : value;
}

/**
 * Ten trillion dollars: more than every crypto asset's market value together, so no one market's
 * open interest or day's volume reaches it. A figure above is a placeholder (ApeX's documented
 * ticker states 2,036,854,775,808 BTC open, Ethereal's 500,000,000.42 ETH traded in a day) or a
 * unit read wrongly, and is served as unknown.
 */
const MOST_DOLLARS = 1e13;

/** An open interest or volume in dollars: a statistic (0 is a real zero) no larger than MOST_DOLLARS. */
function dollars(value: number | undefined): number | null {
  const usd = statistic(value, { zeroIsUnknown: false });
  return usd !== null && usd > MOST_DOLLARS ? null : usd;
}

// A price of 0 means "none" (settling symbols); open interest or volume of 0 is a real zero.
function statistic(value: number | undefined, { zeroIsUnknown }: { zeroIsUnknown: boolean }): number | null {
  if (value === undefined || !Number.isFinite(value) || value < 0) return null;
  return zeroIsUnknown && value === 0 ? null : value;
}

/**
 * A venue's numeric field: numbers and numeric strings as numbers, absent/null/empty as
 * `undefined`, anything else as `NaN` so the snapshot schema rejects the row.
 */
export function readNumber(value: unknown): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "number") return value;
  if (typeof value === "string" && /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(value)) return Number(value);
  return Number.NaN;
}

/** An ISO 8601 field as epoch ms: absent/null/empty as `undefined`, anything unparseable as `NaN` (the row is refused). */
export function readIsoTime(value: unknown): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  return typeof value === "string" ? Date.parse(value) : Number.NaN;
}

/** A bound stated once for both signs (Gate `funding_rate_limit`, Hyperliquid's protocol cap) as cap and floor. */
export function symmetricBounds(limit: number | undefined): { rateCap: number | undefined; rateFloor: number | undefined } {
  return { rateCap: limit, rateFloor: limit === undefined ? undefined : -limit };
}

/** `a × b` when both are known; propagates `NaN` so garbled inputs still reject the row. */
export function product(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined ? undefined : a * b;
}
