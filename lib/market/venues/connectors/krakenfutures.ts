import type { krakenfutures, MarketInterface } from "ccxt";
import { readIsoTime, readNumber, symmetricBounds, type FundingObservation, type ObservedInterval } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { nextWholeHour } from "./dydx";
import { statedInterval } from "./read-interval";
import { asRecord, rowsOf, type VenueAdapter, type CollectContext } from "./venue-adapter";

/**
 * Kraken's tickers state `fundingRate` and `fundingRatePrediction` as **absolute** rates: dollars
 * per contract per hour (-7.56e-7 on PF_ENJUSD in ccxt's documented ticker, where the relative
 * rate is -1.74e-5). The fraction of notional every other venue quotes is the absolute rate over one
 * contract's value at the mark (`contractSize` units of the base). A rate with no usable mark is
 * no rate: absent stays absent, anything else is garbled (NaN) and rejects the row.
 */
export function relativeFundingRate(
  absolute: number | undefined,
  markPrice: number | undefined,
  contractSize: number,
): number | undefined {
  if (absolute === undefined) return undefined;
  if (markPrice === undefined) return undefined;
  if (!Number.isFinite(markPrice) || markPrice <= 0 || !(contractSize > 0)) return Number.NaN;
  return absolute / (markPrice * contractSize);
}

/**
 * `fundingRateCoefficient` is the number of funding periods in a day (24 on every perpetual:
 * hourly funding, as ccxt's parser and Kraken's hourly historical rates have it), so the interval
 * is 24 / coefficient hours; a missing or unusable coefficient leaves the interval unknown.
 */
export function krakenFundingInterval(instrument: Record<string, unknown> | undefined): ObservedInterval | null {
  const perDay = readNumber(instrument?.fundingRateCoefficient);
  if (perDay === undefined || !Number.isFinite(perDay) || perDay <= 0) return null;
  const hours = 24 / perDay;
  return Number.isInteger(hours) ? statedInterval(hours) : null;
}

export const krakenfuturesAdapter: VenueAdapter<krakenfutures> = {
  id: "krakenfutures",
  // ccxt's fetchMarkets is the one public `GET /derivatives/api/v3/instruments`; currencies are off
  // in its class. Multi-collateral `PF_` perpetuals come out linear, `BTC/USD:USD`; the inverse
  // `PI_` ones settle in the coin and are excluded as every inverse contract is.
  create: (lib, config) => new lib.krakenfutures(clientConfig(config)),
  // `PF_` perpetuals are quoted, margined and settled in dollars (against any collateral).
  alsoDollars: ["USD"],
  // The instrument's own `base`: `AAPLx` on PF_AAPLxUSD is the xStocks token, a tokenised share and
  // not the AAPL stock perpetuals of other venues; kept apart by its own name (normalised AAPLX).
  venueBase: (market: MarketInterface) => {
    const base = asRecord(market.info)?.base;
    return typeof base === "string" && base !== "" ? base : market.base;
  },
  async collect(exchange, context) {
    // `GET /derivatives/api/v3/tickers` answers every instrument at once: rates, mark, index, open
    // interest and volume. Raw rather than fetchFundingRates, which clamps the converted rate to
    // ±25 % and reads a garbled answer as an empty list.
    const payload = asRecord(await exchange.publicGetTickers());
    const answeredAt = readIsoTime(payload?.serverTime);
    // Futures and index tickers share the list; only perpetuals fund.
    const rows = rowsOf(payload, "tickers").filter((row) => row.tag === "perpetual");
    const observations: FundingObservation[] = [];
    for (const row of rows) observations.push(krakenObservation(row, context, answeredAt));
    return { observations, warnings: [] };
  },
};

/** One perpetual's ticker, its bounds and interval from the market's instrument. */
function krakenObservation(row: Record<string, unknown>, { marketsById, fetchedAt }: CollectContext, answeredAt: number | undefined): FundingObservation {
  const id = String(row.symbol ?? "");
  const market = marketsById.get(id);
  const instrument = asRecord(market?.info);
  const contractSize = market?.contractSize ?? 1;
  const markPrice = readNumber(row.markPrice);
  const openInterest = readNumber(row.openInterest);
  return {
    symbol: market?.symbol ?? id,
    fundingRate: relativeFundingRate(readNumber(row.fundingRate), markPrice, contractSize),
    predictedFundingRate: relativeFundingRate(readNumber(row.fundingRatePrediction), markPrice, contractSize),
    // `maxRelativeFundingRate` bounds the relative rate per hour, both ways.
    ...symmetricBounds(readNumber(instrument?.maxRelativeFundingRate)),
    interval: krakenFundingInterval(instrument),
    // Funding is charged on every whole UTC hour; the ticker names no settlement time.
    nextFundingAt: nextWholeHour(answeredAt !== undefined && Number.isFinite(answeredAt) ? answeredAt : fetchedAt),
    markPrice,
    indexPrice: readNumber(row.indexPrice),
    // `openInterest` counts contracts of `contractSize` base units; `volumeQuote` is the 24h
    // volume in the quote currency (USD) on linear perpetuals.
    openInterestUsd:
      openInterest === undefined || markPrice === undefined ? undefined : openInterest * contractSize * markPrice,
    volume24hUsd: readNumber(row.volumeQuote),
    observedAt: answeredAt ?? fetchedAt,
  };
}
