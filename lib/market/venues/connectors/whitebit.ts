import type { MarketInterface, whitebit } from "ccxt";
import { tickerUnderlyingClass } from "../../model/underlying-class";
import type { UnderlyingClass } from "../../model/types";
import { product, readNumber, type FundingObservation } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { statedInterval } from "./read-interval";
import { asRecord, rowsOf, type VenueAdapter } from "./venue-adapter";

/**
 * WhiteBIT's perpetuals on traditional assets: its market list types them `tradfiFutures` (ccxt
 * reads them as swaps beside the `futures` ones). A ticker the class table names takes that class;
 * any other is `other`, which pairs with no crypto market (a wrong `other` costs a missed pair, a
 * wrong `crypto` a false one).
 */
export function whitebitUnderlyingClass(market: Pick<MarketInterface, "base" | "info">): UnderlyingClass | undefined {
  if (asRecord(market.info)?.type !== "tradfiFutures") return undefined;
  return tickerUnderlyingClass(market.base) ?? "other";
}

/**
 * The interval `funding_interval_minutes` states, in hours; absent (older rows, the ccxt comment's
 * Gate-like layout) it is unknown rather than assumed.
 */
function statedHours(row: Record<string, unknown>): number | null {
  const minutes = readNumber(row.funding_interval_minutes);
  return minutes === undefined || !(minutes > 0) ? null : minutes / 60;
}

/**
 * One perpetual from its row of `GET /api/v4/public/futures`
 * (https://docs.whitebit.com/api-reference/market-data/available-futures-markets-list).
 * `funding_rate` is the current rate, a fraction per interval, paid at
 * `next_funding_rate_timestamp` (ms); `funding_interval_minutes` states the interval. WhiteBIT
 * publishes no forecast, no mark price and no bound on the rate (`brackets` are leverage tiers).
 * `open_interest` counts the base asset and is valued at the index; `money_volume` is the 24h
 * volume in USDT.
 */
export function whitebitObservation(
  market: Pick<MarketInterface, "symbol" | "base" | "info">,
  row: Record<string, unknown>,
): FundingObservation {
  const indexPrice = readNumber(row.index_price);
  const hours = statedHours(row);
  const underlying = whitebitUnderlyingClass(market);
  return {
    symbol: market.symbol,
    fundingRate: readNumber(row.funding_rate),
    // None published: the list carries only the current rate.
    predictedFundingRate: undefined,
    interval: statedInterval(hours),
    nextFundingAt: readNumber(row.next_funding_rate_timestamp),
    // The list has the last trade and the index, no mark.
    markPrice: undefined,
    indexPrice,
    openInterestUsd: product(readNumber(row.open_interest), indexPrice),
    volume24hUsd: readNumber(row.money_volume),
    // No payload time: the refresh's.
    observedAt: undefined,
    ...(underlying === undefined ? {} : { underlyingClass: underlying }),
  };
}

export const whitebitAdapter: VenueAdapter<whitebit> = {
  id: "whitebit",
  // ccxt's fetchMarkets is one `GET /api/v4/public/markets`: spot pairs (excluded) and the
  // perpetuals (`BTC_PERP`, money `PERP`, which ccxt reads as USDT-quoted and -settled).
  create: (lib, config) => new lib.whitebit(clientConfig(config)),
  async collect(exchange, { marketsById }) {
    // Every perpetual's row in one request, read raw: ccxt's fetchFundingRates drops the interval.
    const payload = asRecord(await exchange.v4PublicGetFutures());
    if (payload?.success === false) throw new Error(`futures: ${String(payload.message)}`);
    const observations = rowsOf(payload, "result").flatMap((row): FundingObservation[] => {
      const id = row.ticker_id;
      if (typeof id !== "string") return [];
      const market = marketsById.get(id);
      return [whitebitObservation(market ?? { symbol: id, base: id, info: {} }, row)];
    });
    return { observations, warnings: [] };
  },
};
