import type { IntervalSource, VenueId } from "../model/types";
import { venueTakerFee } from "./venue-fees";

/**
 * What the live connector of a venue produces, venue by venue: the one list both the live service
 * (VENUE_IDS, the connectors in connectors/venue-adapters.ts) and the sandbox test keys read
 * (sandbox/venue-profiles.ts) are built from, so a test key sees every live venue behaving as it
 * does live. lib/market/README.md's interval table says where each figure comes from.
 */
export interface VenueBehaviour {
  /**
   * Settlement currency of the venue's linear perpetuals, as its connector lists them; `USD` where
   * the venue settles in dollars against multi-currency collateral (Kraken's `PF_` perpetuals), and a
   * HIP-3 dex's collateral: USDC, or the USDH or USDe stablecoin its meta names.
   */
  settle: "USDT" | "USDC" | "USD" | "USDH" | "USDE";
  /** The intervals (hours) the venue's perpetuals settle on, the usual one first. */
  intervalsHours: readonly number[];
  /** The `fundingIntervalSource` its connector reports, the usual one first. */
  intervalSources: readonly IntervalSource[];
  /** Whether its connector reads a cap and floor on the rate (`rateCap`/`rateFloor`). */
  statesRateBounds: boolean;
  /** Hours after 00:00 UTC at which its settlement grid starts (BitMEX settles at 04/12/20). */
  gridOffsetHours: number;
  /**
   * The taker fee the connector reads for a market where the venue has no published schedule
   * (ccxt's market `taker`, or the venue's own row); null when it reads none. Unused where a
   * schedule is known (venue-fees.ts), which wins.
   */
  statedTakerFee: number | null;
  /**
   * The connector reads a cost per market rather than one fee for the venue (Variational: half each
   * listing's quoted spread); `statedTakerFee` is then a representative figure (its BTC listing's).
   */
  takerFeePerMarket?: boolean;
}

const CEX_INTERVALS = [8, 4, 2, 1] as const;
const HOURLY = [1] as const;

export const VENUE_REGISTRY: Readonly<Record<VenueId, VenueBehaviour>> = {
  binance: { settle: "USDT", intervalsHours: CEX_INTERVALS, intervalSources: ["venue-default", "venue", "schedule", "interest-rate"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: 0.0005 },
  bybit: { settle: "USDT", intervalsHours: CEX_INTERVALS, intervalSources: ["venue"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: 0.0006 },
  okx: { settle: "USDT", intervalsHours: CEX_INTERVALS, intervalSources: ["schedule"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: 0.0005 },
  bitget: { settle: "USDT", intervalsHours: CEX_INTERVALS, intervalSources: ["venue"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: 0.0006 },
  gate: { settle: "USDT", intervalsHours: CEX_INTERVALS, intervalSources: ["venue"], statesRateBounds: false, gridOffsetHours: 0, statedTakerFee: 0.0005 },
  hyperliquid: { settle: "USDC", intervalsHours: HOURLY, intervalSources: ["venue", "protocol"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: 0.00045 },
  dydx: { settle: "USDC", intervalsHours: HOURLY, intervalSources: ["protocol"], statesRateBounds: false, gridOffsetHours: 0, statedTakerFee: 0.0005 },
  aster: { settle: "USDT", intervalsHours: CEX_INTERVALS, intervalSources: ["venue", "schedule"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: 0.00035 },
  lighter: { settle: "USDC", intervalsHours: HOURLY, intervalSources: ["protocol"], statesRateBounds: false, gridOffsetHours: 0, statedTakerFee: null },
  paradex: { settle: "USDC", intervalsHours: [8], intervalSources: ["venue"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: 0.0003 },
  extended: { settle: "USDC", intervalsHours: HOURLY, intervalSources: ["protocol"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: 0.002 },
  grvt: { settle: "USDT", intervalsHours: CEX_INTERVALS, intervalSources: ["venue"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: null },
  backpack: { settle: "USDC", intervalsHours: [8, 1], intervalSources: ["venue"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: null },
  mexc: { settle: "USDT", intervalsHours: [8, 4, 1], intervalSources: ["venue"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: 0.0006 },
  kucoinfutures: { settle: "USDT", intervalsHours: [8, 4, 1], intervalSources: ["venue"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: 0.0006 },
  bingx: { settle: "USDT", intervalsHours: CEX_INTERVALS, intervalSources: ["venue"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: 0.0005 },
  htx: { settle: "USDT", intervalsHours: [8, 4, 1], intervalSources: ["schedule"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: 0.0005 },
  bitmart: { settle: "USDT", intervalsHours: [8, 4, 1], intervalSources: ["venue"], statesRateBounds: false, gridOffsetHours: 0, statedTakerFee: null },
  deribit: { settle: "USDC", intervalsHours: [8], intervalSources: ["continuous"], statesRateBounds: false, gridOffsetHours: 0, statedTakerFee: 0.0005 },
  bitmex: { settle: "USDT", intervalsHours: [8], intervalSources: ["venue"], statesRateBounds: false, gridOffsetHours: 4, statedTakerFee: 0.0005 },
  coinex: { settle: "USDT", intervalsHours: [8, 4, 2], intervalSources: ["schedule"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: 0.001 },
  phemex: { settle: "USDT", intervalsHours: [8, 4, 1], intervalSources: ["venue"], statesRateBounds: false, gridOffsetHours: 0, statedTakerFee: 0.001 },
  woo: { settle: "USDT", intervalsHours: [8, 4, 1], intervalSources: ["venue", "schedule"], statesRateBounds: false, gridOffsetHours: 0, statedTakerFee: 0.0005 },
  krakenfutures: { settle: "USD", intervalsHours: HOURLY, intervalSources: ["venue"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: 0.0005 },
  derive: { settle: "USDC", intervalsHours: HOURLY, intervalSources: ["protocol"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: 0.0003 },
  drift: { settle: "USDC", intervalsHours: HOURLY, intervalSources: ["protocol"], statesRateBounds: false, gridOffsetHours: 0, statedTakerFee: 0.00035 },
  pacifica: { settle: "USDC", intervalsHours: HOURLY, intervalSources: ["protocol"], statesRateBounds: false, gridOffsetHours: 0, statedTakerFee: 0.0004 },
  orderly: { settle: "USDC", intervalsHours: [8, 4, 1], intervalSources: ["venue", "schedule"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: null },
  btse: { settle: "USDT", intervalsHours: [8, 4, 1], intervalSources: ["venue"], statesRateBounds: false, gridOffsetHours: 0, statedTakerFee: 0.00055 },
  weex: { settle: "USDT", intervalsHours: [8, 4, 1], intervalSources: ["venue"], statesRateBounds: false, gridOffsetHours: 0, statedTakerFee: 0.0008 },
  // Per-listing intervals (8, 4 and 1 h in the recording); the "fee" is half the quoted spread (BTC's 1.08 bp: 0.000054).
  variational: { settle: "USDC", intervalsHours: [8, 4, 1], intervalSources: ["venue"], statesRateBounds: false, gridOffsetHours: 0, statedTakerFee: 0.000054, takerFeePerMarket: true },
  hibachi: { settle: "USDT", intervalsHours: HOURLY, intervalSources: ["protocol"], statesRateBounds: false, gridOffsetHours: 0, statedTakerFee: null },
  edgex: { settle: "USDC", intervalsHours: [4], intervalSources: ["venue"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: 0.00045 },
  ethereal: { settle: "USDE", intervalsHours: HOURLY, intervalSources: ["protocol"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: 0.004 },
  bitfinex: { settle: "USDT", intervalsHours: [8], intervalSources: ["protocol"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: 0.002 },
  cryptocom: { settle: "USD", intervalsHours: HOURLY, intervalSources: ["protocol"], statesRateBounds: false, gridOffsetHours: 0, statedTakerFee: 0.005 },
  // The interval each row states (`funding_interval_minutes`); the taker is the perpetual's own row of the
  // market list (0.055 % in the synthetic replay: no real row or fee page was read).
  whitebit: { settle: "USDT", intervalsHours: CEX_INTERVALS, intervalSources: ["venue"], statesRateBounds: false, gridOffsetHours: 0, statedTakerFee: 0.00055 },
  // Intervals from each contract's last settlement and the next (connectors/hitbtc.ts); the taker is the
  // contract's own `take_rate` in the symbol list (0.05 % on ccxt's documented perpetual row).
  hitbtc: { settle: "USDT", intervalsHours: CEX_INTERVALS, intervalSources: ["schedule"], statesRateBounds: false, gridOffsetHours: 0, statedTakerFee: 0.0005 },
  // `period` of each funding row states the interval, `fundingRateCap`/`Floor` the bounds; no taker in its market list.
  toobit: { settle: "USDT", intervalsHours: CEX_INTERVALS, intervalSources: ["venue"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: null },
  // Hourly by protocol rule; each contract's `fundingMaxRate`/`fundingMinRate` bound the rate. The taker is
  // ccxt's market figure (0.02 %, which ccxt swaps with the maker's); the published schedule wins (venue-fees.ts).
  apex: { settle: "USDT", intervalsHours: HOURLY, intervalSources: ["protocol"], statesRateBounds: true, gridOffsetHours: 0, statedTakerFee: 0.0002 },
  // HIP-3 dexes: hourly by protocol rule, no bound read (connectors/hyperliquid-hip3.ts). Collateral:
  // xyz USDC (its documented meta), km USDH and hyna USDe (nautilus' allPerpMetas recording), flx
  // and vntl USDH (the research, third-party); cash and para unverified, written USDC. The
  // live connector reads each dex's `collateralToken` every refresh, so this is the sandbox's guess only.
  "hyperliquid:xyz": hip3Behaviour("USDC"),
  "hyperliquid:flx": hip3Behaviour("USDH"),
  "hyperliquid:vntl": hip3Behaviour("USDH"),
  "hyperliquid:hyna": hip3Behaviour("USDE"),
  "hyperliquid:km": hip3Behaviour("USDH"),
  "hyperliquid:cash": hip3Behaviour("USDC"),
  "hyperliquid:para": hip3Behaviour("USDC"),
};

function hip3Behaviour(settle: VenueBehaviour["settle"]): VenueBehaviour {
  return { settle, intervalsHours: HOURLY, intervalSources: ["protocol"], statesRateBounds: false, gridOffsetHours: 0, statedTakerFee: null };
}

/** The taker fee a live snapshot of the venue carries: its published schedule, else what its connector reads. */
export function registryTakerFee(venue: VenueId): number | null {
  return venueTakerFee(venue, VENUE_REGISTRY[venue].statedTakerFee);
}
