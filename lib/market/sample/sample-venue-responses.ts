import type { ReplayRoute } from "../replay-fetch";
import { ASTER_TIME } from "./replays/aster";
import { BACKPACK_TIME } from "./replays/backpack";
import { DYDX_RECORDED_AT } from "./replays/dydx";
import { EXTENDED_RECORDED_AT } from "./replays/extended";
import { LIGHTER_RECORDED_AT } from "./replays/lighter";
import { WOO_TIME } from "./replays/woo";
import { BINANCE_2025_TIME, BITGET_TIME, BYBIT_TIME, OKX_TS } from "./venue-replays";
import { VENUE_REPLAYS } from "./venue-replay-table";
import { VENUE_IDS, type VenueId } from "../types";

/**
 * Every venue for which recordings exist, and the moment its responses (its VENUE_REPLAYS) are of,
 * epoch ms. Binance, OKX, Hyperliquid, dYdX, Lighter and Extended are built on real mainnet
 * recordings; Aster's, Backpack's and WOO X's funding payloads are real rows with synthetic BTC and
 * ETH rows beside them; Bybit, Bitget and Gate are synthetic in the venues' documented formats (no
 * multi-row capture of them exists; see lib/market/README.md "Offline first run"). A venue with no
 * mainnet recording of its funding payload is not in the sample (documented examples only; testnet
 * only for Paradex; GRVT a documented ticker; Deribit only an inverse perpetual's ticker, which it
 * excludes): a fresh install shows it once it has been fetched.
 *
 * The recordings are from different days, and a price spread between two of them would measure how
 * the market moved in between, so the sample replays each venue at its own moment and the usual rule
 * (lib/market/price-spread.ts) leaves cross-day pairs without a spread. Where a payload states a
 * time, the moment is that time (a unit test holds the two together); where it has none, it is the
 * replay's clock.
 */
export const SAMPLE_RECORDED_AT: Partial<Record<VenueId, number>> = {
  // The real premiumIndex's `time`: 2025-06-17 08:38:08Z.
  binance: BINANCE_2025_TIME,
  // Hyperliquid's real recording has no time, but its predictedFundings names 14:00Z 2026-09-27 as
  // the next hourly settlement, so it was taken in the hour before. The synthetic OKX, Bybit and
  // Gate rows were written for that moment (Bybit's rates are the ones Hyperliquid relays, the BTC
  // marks lie within 2 bps of Hyperliquid's) and are dated 13:50Z; Hyperliquid is dated with them.
  bybit: BYBIT_TIME,
  okx: OKX_TS,
  // The synthetic tickers' `ts`: 2026-08-01 07:40Z, in the hour of the one real Bitget row.
  bitget: BITGET_TIME,
  gate: OKX_TS,
  hyperliquid: OKX_TS,
  // WOO X's real /v3/public/fundingRate answer's `timestamp` (ccxt's recording): 2025-07-04
  // 10:13:57.798Z. CoinEx and Phemex have no recording, only documented examples, and stay out.
  woo: WOO_TIME,
  // dYdX's real perpetualMarkets: its capture envelope's time, 2025-12-08 16:12Z (replays/dydx.ts).
  dydx: DYDX_RECORDED_AT,
  // Lighter's real funding rows carry no time; their ccxt recording session's status time,
  // 2025-11-13 03:46:41Z (replays/lighter.ts; its market statistics are of 2026-05-05).
  lighter: LIGHTER_RECORDED_AT,
  // Extended's real market list names 07:00Z 2026-04-29 as the next hourly settlement, so it was
  // taken in the hour before; dated at its middle, 06:30Z (replays/extended.ts).
  extended: EXTENDED_RECORDED_AT,
  // The real premiumIndex rows' `time`: 2025-09-25 01:38:55Z (BTC's and ETH's rows are synthetic,
  // written for that moment).
  aster: ASTER_TIME,
  // The real markPrices rows carry no time; their next hourly settlement (11:00Z 2025-10-03) dates
  // them to the hour before, and the sample puts them at its middle, 10:30Z.
  backpack: BACKPACK_TIME,
};

/** The venues of the offline sample, in VENUE_IDS order. */
export const SAMPLE_VENUE_IDS: readonly VenueId[] = VENUE_IDS.filter((venue) => SAMPLE_RECORDED_AT[venue] !== undefined);

/** The responses the offline sample replays, per venue. */
export function sampleVenueResponses(): Partial<Record<VenueId, ReplayRoute[]>> {
  return Object.fromEntries(SAMPLE_VENUE_IDS.map((venue) => [venue, VENUE_REPLAYS[venue]()]));
}

/** What lib/market/sample/venue-responses.json holds: each venue's moment and responses. */
export interface SampleMarketFile {
  /** ISO 8601 UTC, per venue: see {@link SAMPLE_RECORDED_AT}. */
  recordedAt: Partial<Record<VenueId, string>>;
  responses: Partial<Record<VenueId, ReplayRoute[]>>;
}

export function sampleMarketFile(): SampleMarketFile {
  const recordedAt = Object.fromEntries(
    SAMPLE_VENUE_IDS.map((venue) => [venue, new Date(SAMPLE_RECORDED_AT[venue] ?? Number.NaN).toISOString()]),
  );
  return { recordedAt, responses: sampleVenueResponses() };
}
