import { HIP3_VENUE_IDS, type Hip3VenueId } from "../model/hip3-venues";
import { VENUE_IDS, type IntervalSource, type VenueId } from "../model/types";
import { registryTakerFee, VENUE_REGISTRY } from "../venues/venue-registry";

/**
 * HIP-3 dexes the sandbox leaves out: its universe is a catalogue of crypto assets, and these list
 * equities, indices, commodities and pre-IPO companies, which it has no model of. HyENA
 * (`hyperliquid:hyna`) lists crypto perps and is in.
 */
export const SANDBOX_LEFT_OUT: ReadonlySet<VenueId> = new Set(HIP3_VENUE_IDS.filter((venue) => venue !== "hyperliquid:hyna"));

/**
 * The venues of the sandbox market test keys see: every live venue (VENUE_IDS) but SANDBOX_LEFT_OUT,
 * each behaving as its live connector does (VENUE_REGISTRY: settlement currency, intervals and their
 * source, whether it states bounds, its fee), so clients are written against the venue set
 * production returns.
 */
export const SANDBOX_VENUE_IDS: readonly VenueId[] = VENUE_IDS.filter((venue) => !SANDBOX_LEFT_OUT.has(venue));
export type SandboxVenueId = VenueId;

export interface VenueProfile {
  /** Taker fee as live snapshots carry it: the published base tier, else the connector's (registryTakerFee). */
  takerFee: number | null;
  settle: "USDT" | "USDC" | "USD" | "USDH" | "USDE";
  /**
   * The venue's own market id, e.g. `BTC-USDT-SWAP` on OKX; `index` is the market's position in
   * the venue's sandbox listing, which is what Hyperliquid uses as its id.
   */
  marketId(venueBase: string, index: number): string;
  /** Where the live connector reads this venue's interval from (lib/market/README.md table). */
  intervalSource(hours: number): IntervalSource;
  /** ccxt's spelling of a bundled base: Hyperliquid's `kPEPE` becomes `KPEPE` in the symbol. */
  symbolBase(venueBase: string): string;
  /**
   * Prefix the venue puts on the base of very cheap tokens (`1000PEPE`, `kPEPE`); `null` when it
   * lists them per token.
   */
  bundlePrefix: string | null;
  /**
   * Binance and Bybit add the clamped interest component, which pins the rate at exactly 0.01 %/8h
   * whenever the premium is within ±0.05 %; the others drift continuously around it.
   */
  pinsToInterestRate: boolean;
  /** Share of Binance's volume on a typical asset. */
  volumeShare: number;
  /** Binance has no all-symbol open-interest endpoint, so live Binance snapshots carry `null`. */
  reportsOpenInterest: boolean;
  /** OKX's funding payload carries no index price, so live OKX snapshots carry `null`. */
  reportsIndexPrice: boolean;
  /**
   * Whether the live connector reads a forecast of the rate (Binance's premium-index estimate,
   * Gate's indicative rate, Hyperliquid's predictedFundings); the sandbox's is the rate itself.
   */
  publishesForecast: boolean;
  /**
   * Whether the venue states the rate's cap and floor for a market with this interval source:
   * Binance only for the markets its fundingInfo lists (adjusted ones), Gate not in its contract rows.
   */
  statesRateBounds(source: IntervalSource): boolean;
}

const asIs = (base: string) => base;

/** The six venues the sandbox started with, modelled in detail (pinned rates, ids, bundles, forecasts). */
const DETAILED_PROFILES = {
  binance: {
    takerFee: registryTakerFee("binance"),
    settle: "USDT",
    marketId: (base) => `${base}USDT`,
    // Binance's fundingInfo lists only adjusted symbols; an 8h one is read as the documented default.
    intervalSource: (hours) => (hours === 8 ? "venue-default" : "venue"),
    symbolBase: asIs,
    bundlePrefix: "1000",
    pinsToInterestRate: true,
    volumeShare: 1,
    reportsOpenInterest: false,
    reportsIndexPrice: true,
    publishesForecast: true,
    statesRateBounds: (source) => source !== "venue-default",
  },
  bybit: {
    takerFee: registryTakerFee("bybit"),
    settle: "USDT",
    marketId: (base) => `${base}USDT`,
    intervalSource: () => "venue",
    symbolBase: asIs,
    bundlePrefix: "1000",
    pinsToInterestRate: true,
    volumeShare: 0.55,
    reportsOpenInterest: true,
    reportsIndexPrice: true,
    publishesForecast: false,
    statesRateBounds: () => true,
  },
  okx: {
    takerFee: registryTakerFee("okx"),
    settle: "USDT",
    marketId: (base) => `${base}-USDT-SWAP`,
    intervalSource: () => "schedule",
    symbolBase: asIs,
    bundlePrefix: null,
    pinsToInterestRate: false,
    volumeShare: 0.35,
    reportsOpenInterest: true,
    reportsIndexPrice: false,
    publishesForecast: false,
    statesRateBounds: () => true,
  },
  bitget: {
    takerFee: registryTakerFee("bitget"),
    settle: "USDT",
    marketId: (base) => `${base}USDT`,
    intervalSource: () => "venue",
    symbolBase: asIs,
    bundlePrefix: null,
    pinsToInterestRate: false,
    volumeShare: 0.3,
    reportsOpenInterest: true,
    reportsIndexPrice: true,
    publishesForecast: false,
    statesRateBounds: () => true,
  },
  gate: {
    takerFee: registryTakerFee("gate"),
    settle: "USDT",
    marketId: (base) => `${base}_USDT`,
    intervalSource: () => "venue",
    symbolBase: asIs,
    bundlePrefix: null,
    pinsToInterestRate: false,
    volumeShare: 0.18,
    reportsOpenInterest: true,
    reportsIndexPrice: true,
    publishesForecast: true,
    statesRateBounds: () => false,
  },
  hyperliquid: {
    takerFee: registryTakerFee("hyperliquid"),
    settle: "USDC",
    marketId: (_base, index) => String(index),
    intervalSource: () => "venue",
    symbolBase: (base) => base.toUpperCase(),
    bundlePrefix: "k",
    pinsToInterestRate: false,
    volumeShare: 0.3,
    reportsOpenInterest: true,
    reportsIndexPrice: true,
    publishesForecast: true,
    statesRateBounds: () => true,
  },
} satisfies Partial<Record<VenueId, VenueProfile>>;

/** The venues modelled in detail; the others are modelled from VENUE_REGISTRY alone. */
export const DETAILED_VENUE_IDS: ReadonlySet<SandboxVenueId> = new Set(Object.keys(DETAILED_PROFILES) as SandboxVenueId[]);

/** Each other venue's own market id for an asset, as its live connector reports `venueMarketId`. */
const MARKET_IDS: Record<Exclude<VenueId, keyof typeof DETAILED_PROFILES>, (base: string, index: number) => string> = {
  dydx: (base) => `${base}-USD`,
  aster: (base) => `${base}USDT`,
  lighter: (_base, index) => String(index),
  paradex: (base) => `${base}-USD-PERP`,
  extended: (base) => `${base}-USD`,
  grvt: (base) => `${base}_USDT_Perp`,
  backpack: (base) => `${base}_USDC_PERP`,
  mexc: (base) => `${base}_USDT`,
  kucoinfutures: (base) => `${base}USDTM`,
  bingx: (base) => `${base}-USDT`,
  htx: (base) => `${base}-USDT`,
  bitmart: (base) => `${base}USDT`,
  deribit: (base) => `${base}_USDC-PERPETUAL`,
  bitmex: (base) => `${base}USDT`,
  coinex: (base) => `${base}USDT`,
  phemex: (base) => `${base}USDT`,
  woo: (base) => `PERP_${base}_USDT`,
  krakenfutures: (base) => `PF_${base}USD`,
  derive: (base) => `${base}-PERP`,
  drift: (base) => `${base}-PERP`,
  pacifica: (base) => base,
  orderly: (base) => `PERP_${base}_USDC`,
  btse: (base) => `${base}-PERP-USDT`,
  weex: (base) => `${base}USDT`,
  variational: (base) => base,
  hibachi: (base) => `${base}/USDT-P`,
  edgex: (base) => `${base}USDC`,
  ethereal: (base) => `${base}USD`,
  bitfinex: (base) => `t${base}F0:USTF0`,
  cryptocom: (base) => `${base}USD-PERP`,
  whitebit: (base) => `${base}_PERP`,
  hitbtc: (base) => `${base}USDT_PERP`,
  toobit: (base) => `${base}-SWAP-USDT`,
  apex: (base) => `${base}-USDT`,
  // A HIP-3 dex names a market by its coin (`hyna:BTC`), as its connector's venueMarketId.
  ...(Object.fromEntries(HIP3_VENUE_IDS.map((venue) => [venue, (base: string) => `${venue.slice("hyperliquid:".length)}:${base}`])) as Record<Hip3VenueId, (base: string) => string>),
};

/** ccxt's symbol base on a HIP-3 dex: the coin with its dex upper-cased and a dash (`HYNA-BTC`). */
function hip3SymbolBase(venue: Hip3VenueId): (venueBase: string) => string {
  const dex = venue.slice("hyperliquid:".length).toUpperCase();
  return (venueBase) => `${dex}-${venueBase}`;
}

/** A venue modelled from its registry entry alone: its settlement, interval source, bounds and fee. */
function registryProfile(venue: Exclude<VenueId, keyof typeof DETAILED_PROFILES>): VenueProfile {
  const behaviour = VENUE_REGISTRY[venue];
  const source = behaviour.intervalSources[0] ?? "venue";
  return {
    takerFee: registryTakerFee(venue),
    settle: behaviour.settle,
    marketId: MARKET_IDS[venue],
    intervalSource: () => source,
    symbolBase: (HIP3_VENUE_IDS as readonly string[]).includes(venue) ? hip3SymbolBase(venue as Hip3VenueId) : asIs,
    bundlePrefix: null,
    pinsToInterestRate: false,
    volumeShare: 0.12,
    reportsOpenInterest: true,
    reportsIndexPrice: true,
    publishesForecast: false,
    statesRateBounds: () => behaviour.statesRateBounds,
  };
}

export const VENUE_PROFILES: Readonly<Record<SandboxVenueId, VenueProfile>> = Object.fromEntries(
  VENUE_IDS.map((venue) => [venue, venue in DETAILED_PROFILES ? DETAILED_PROFILES[venue as keyof typeof DETAILED_PROFILES] : registryProfile(venue as Exclude<VenueId, keyof typeof DETAILED_PROFILES>)]),
) as Record<SandboxVenueId, VenueProfile>;
