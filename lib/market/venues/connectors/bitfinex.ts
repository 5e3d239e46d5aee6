import type { bitfinex } from "ccxt";
import type { UnderlyingClass } from "../../model/types";
import { product, readNumber, type FundingObservation } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { optional, type VenueAdapter } from "./venue-adapter";

/**
 * Bitfinex settles perpetual funding every 8 hours, at 00:00, 08:00 and 16:00 UTC (its derivatives
 * docs, https://docs.bitfinex.com/docs/derivatives, and ccxt's `8h` history paging); no field of the
 * status row states the interval, so it is the protocol's rule.
 */
const PROTOCOL_INTERVAL_HOURS = 8;

/*
 * Positions of `GET /v2/status/deriv` row fields (https://docs.bitfinex.com/reference/rest-public-derivatives-status):
 * KEY, MTS, _, DERIV_PRICE, SPOT_PRICE, _, INSURANCE_FUND_BALANCE, _, NEXT_FUNDING_EVT_TIMESTAMP_MS,
 * NEXT_FUNDING_ACCRUED, NEXT_FUNDING_STEP, _, CURRENT_FUNDING, _, _, MARK_PRICE, _, _, OPEN_INTEREST,
 * _, _, _, CLAMP_MIN, CLAMP_MAX.
 */
const KEY = 0;
const MTS = 1;
const SPOT_PRICE = 4;
const NEXT_FUNDING_AT = 8;
const NEXT_FUNDING_ACCRUED = 9;
const CURRENT_FUNDING = 12;
const MARK_PRICE = 15;
const OPEN_INTEREST = 18;
const CLAMP_MAX = 23;

/**
 * Bitfinex's perpetuals on things other than crypto: currency pairs (`EURF0:USTF0`, `GBPF0`,
 * `JPYF0`) and equity indices, which Bitfinex names with an `IX` suffix after the index's size
 * (`EUROPE50IXF0`, `GERMANY40IXF0`). Anything else is a crypto asset (`XAUT` is Tether's gold token,
 * a crypto asset itself).
 */
const FX_BASES = new Set(["EUR", "GBP", "JPY", "CHF"]);
export function bitfinexUnderlyingClass(base: string): UnderlyingClass | undefined {
  if (FX_BASES.has(base)) return "fx";
  if (/^[A-Z]+\d+IX$/.test(base)) return "index";
  return undefined;
}

/**
 * One perpetual from its status row. `CURRENT_FUNDING` is the rate of the current 8-hour period,
 * charged at `NEXT_FUNDING_EVT_TIMESTAMP_MS`; `NEXT_FUNDING_ACCRUED` is what has accrued so far
 * toward the period after it (ccxt reads it as the next rate too), so it is the forecast.
 * `CLAMP_MAX` caps the rate; `CLAMP_MIN` is not a floor but the dead band around the interest
 * component (a premium inside it funds at the interest rate), so no floor is read. `SPOT_PRICE` is
 * the underlying's spot index (`DERIV_PRICE`, which ccxt reads as the index, is the perpetual's own
 * price); `OPEN_INTEREST` counts the base asset (contract size 1).
 */
export function bitfinexObservation(
  symbol: string,
  row: readonly unknown[],
  base: string | undefined,
  baseVolume24h: number | undefined,
): FundingObservation {
  const markPrice = readNumber(row[MARK_PRICE]);
  const underlying = base === undefined ? undefined : bitfinexUnderlyingClass(base);
  return {
    symbol,
    fundingRate: readNumber(row[CURRENT_FUNDING]),
    predictedFundingRate: readNumber(row[NEXT_FUNDING_ACCRUED]),
    rateCap: readNumber(row[CLAMP_MAX]),
    // The docs state a cap only; CLAMP_MIN is the dead band (above).
    rateFloor: undefined,
    interval: { hours: PROTOCOL_INTERVAL_HOURS, source: "protocol" },
    nextFundingAt: readNumber(row[NEXT_FUNDING_AT]),
    markPrice,
    indexPrice: readNumber(row[SPOT_PRICE]),
    openInterestUsd: product(readNumber(row[OPEN_INTEREST]), markPrice),
    // The status rows carry no volume; the ticker's is in the base asset, valued at the mark.
    volume24hUsd: product(baseVolume24h, markPrice),
    observedAt: readNumber(row[MTS]),
    ...(underlying === undefined ? {} : { underlyingClass: underlying }),
  };
}

/**
 * The 24h volume of each trading-pair row of `GET /v2/tickers` (SYMBOL, BID, BID_SIZE, ASK,
 * ASK_SIZE, DAILY_CHANGE, DAILY_CHANGE_RELATIVE, LAST_PRICE, VOLUME, HIGH, LOW; ccxt's
 * `fetchTickers` comment), by symbol; VOLUME counts the base asset.
 */
export function bitfinexVolumes(payload: unknown): Map<string, number | undefined> {
  if (!Array.isArray(payload)) throw new Error("expected a list of ticker rows");
  const volumes = new Map<string, number | undefined>();
  for (const row of payload) {
    if (Array.isArray(row) && typeof row[0] === "string") volumes.set(row[0], readNumber(row[8]));
  }
  return volumes;
}

export const bitfinexAdapter: VenueAdapter<bitfinex> = {
  id: "bitfinex",
  // ccxt's fetchMarkets is one `GET /v2/conf/...` for the spot, margin and perpetual pair lists;
  // spot pairs come out as spot and are excluded, and `F0` pairs as linear swaps settled in the quote.
  create: (lib, config) => new lib.bitfinex(clientConfig(config)),
  async collect(exchange, { marketsById }) {
    const warnings: string[] = [];
    const perpetualIds = [...marketsById.values()].filter((market) => market.swap === true).map((market) => market.id);
    // Every derivative's status in one request (raw rather than fetchFundingRates, which needs the
    // symbols named and would read a garbled answer as an empty list), and the perpetuals' tickers
    // for their volume, whose failure costs only that.
    const [payload, volumes] = await Promise.all([
      exchange.publicGetStatusDeriv({ keys: "ALL" }) as Promise<unknown>,
      optional(warnings, "tickers", async () => bitfinexVolumes(await exchange.publicGetTickers({ symbols: perpetualIds.join(",") }))),
    ]);
    if (!Array.isArray(payload)) throw new Error("expected a list of derivative status rows");
    const observations = payload.flatMap((row): FundingObservation[] => {
      if (!Array.isArray(row) || typeof row[KEY] !== "string") return [];
      const market = marketsById.get(row[KEY]);
      return [bitfinexObservation(market?.symbol ?? row[KEY], row, market?.base, volumes?.get(row[KEY]))];
    });
    return { observations, warnings };
  },
};
