import type { toobit } from "ccxt";
import { parseIntervalHours } from "../../model/funding-interval";
import { readNumber, type FundingObservation } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { statedInterval } from "./read-interval";
import { optionalIndex, rowsOf, type VenueAdapter } from "./venue-adapter";

/**
 * One perpetual from its `GET /api/v1/futures/fundingRate` row
 * (https://api-docs.toobit.com/api/usdt-m-market-data.html#funding-rate): `rate` is the current
 * rate, settled at `nextFundingTime`; `period` states the interval (`"8H"`), and
 * `fundingRateCap` / `fundingRateFloor` bound the rate. Older answers (ccxt's example) lack those
 * three: the interval and bounds are then unknown, not assumed. No forecast is published.
 *
 * The mark (`GET /quote/v1/markPrice`, every contract) and the 24h ticker (`qv`, quote volume in
 * USDT) come from their own all-contract answers, where those answered. Open interest is one
 * request a contract and is not asked.
 */
export function toobitObservation(
  symbol: string,
  row: Record<string, unknown>,
  mark: Record<string, unknown> | undefined,
  ticker: Record<string, unknown> | undefined,
): FundingObservation {
  return {
    symbol,
    fundingRate: readNumber(row.rate),
    predictedFundingRate: undefined,
    rateCap: readNumber(row.fundingRateCap),
    rateFloor: readNumber(row.fundingRateFloor),
    interval: statedInterval(parseIntervalHours(row.period)),
    nextFundingAt: readNumber(row.nextFundingTime),
    markPrice: readNumber(mark?.price),
    indexPrice: undefined,
    openInterestUsd: undefined,
    volume24hUsd: readNumber(ticker?.qv),
    observedAt: undefined,
  };
}

export const toobitAdapter: VenueAdapter<toobit> = {
  id: "toobit",
  // ccxt's fetchMarkets is one `GET /api/v1/exchangeInfo`: spot `symbols` and perpetual `contracts`
  // (`BTC-SWAP-USDT`, margined in USDT) in one answer; spot pairs are excluded.
  create: (lib, config) => new lib.toobit(clientConfig(config)),
  async collect(exchange, { marketsById }) {
    const warnings: string[] = [];
    // Every contract's funding row in one request, beside every contract's mark and 24h ticker
    // (each one request, whose failure costs only its fields). Rows are read raw: ccxt's
    // fetchFundingRates drops `period` and the bounds.
    const [payload, marks, tickers] = await Promise.all([
      exchange.commonGetApiV1FuturesFundingRate() as Promise<unknown>,
      optionalIndex(warnings, "mark prices", "symbolId", () => exchange.commonGetQuoteV1MarkPrice()),
      optionalIndex(warnings, "tickers", "s", () => exchange.commonGetQuoteV1ContractTicker24hr()),
    ]);
    const observations = rowsOf(payload).flatMap((row): FundingObservation[] => {
      const id = row.symbol;
      if (typeof id !== "string") return [];
      return [toobitObservation(marketsById.get(id)?.symbol ?? id, row, marks?.get(id), tickers?.get(id))];
    });
    return { observations, warnings };
  },
};
