import type { aster } from "ccxt";
import { intervalsMatchingSchedule, MIDNIGHT_GRID, parseIntervalHours } from "../../model/funding-interval";
import { readNumber, runningEstimate, type FundingObservation, type ObservedInterval } from "./build-snapshot";
import { clientConfig, loadMarketsWith } from "./ccxt-client";
import { optionalIndex, rowsOf, type VenueAdapter, type CollectContext, type IndexedRows } from "./venue-adapter";

/**
 * Aster's USDⓈ-M-style futures API states each symbol's interval in `GET /fapi/v1/fundingInfo`
 * (`fundingIntervalHours`, every symbol listed, unlike Binance's table of exceptions). Without that
 * row (the call failed, a symbol listed since) the premium index's `nextFundingTime` against its
 * `time` decides when exactly one of 1/2/4/8h fits; otherwise the interval is unknown.
 */
export function asterFundingInterval(input: {
  fundingInfoHours: number | null;
  nextFundingTime: number | undefined;
  time: number | undefined;
}): ObservedInterval | null {
  if (input.fundingInfoHours !== null) return { hours: input.fundingInfoHours, source: "venue" };
  const candidates =
    input.nextFundingTime !== undefined && input.time !== undefined
      ? intervalsMatchingSchedule(input.nextFundingTime, input.time, MIDNIGHT_GRID)
      : [];
  const [only] = candidates;
  return only !== undefined && candidates.length === 1 ? { hours: only, source: "schedule" } : null;
}

export const asterAdapter: VenueAdapter<aster> = {
  id: "aster",
  // ccxt's fetchMarkets loads the spot exchangeInfo beside the futures one (and signs in when a
  // key is configured; none is here). No option narrows it, so the futures list alone is loaded
  // and parsed by ccxt's own parseMarket, skipping rows without a base asset as ccxt does.
  create: (lib, config) =>
    loadMarketsWith(new lib.aster(clientConfig(config)), async (exchange, params) => {
      const rows = rowsOf(await exchange.fapiPublicGetV1ExchangeInfo(params), "symbols");
      return exchange.parseMarkets(rows.filter((row) => typeof row.baseAsset === "string"));
    }),
  async collect(exchange, context) {
    const warnings: string[] = [];
    // The /fapi/v1 paths the recordings were taken from; ccxt's own calls use the /fapi/v3 twins,
    // which Aster documents with the same fields.
    const [premiumIndex, fundingInfo, tickers] = await Promise.all([
      exchange.fapiPublicGetV1PremiumIndex(),
      optionalIndex(warnings, "fundingInfo", "symbol", () => exchange.fapiPublicGetV1FundingInfo()),
      optionalIndex(warnings, "ticker/24hr", "symbol", () => exchange.fapiPublicGetV1Ticker24hr()),
    ]);
    const observations: FundingObservation[] = [];
    for (const row of rowsOf(premiumIndex)) observations.push(asterObservation(row, context, fundingInfo, tickers));
    return { observations, warnings };
  },
};

/** One row of the premium index, with its bounds and interval from fundingInfo and its volume from the tickers. */
function asterObservation(row: Record<string, unknown>, { marketsById, fetchedAt }: CollectContext, fundingInfo: IndexedRows | undefined, tickers: IndexedRows | undefined): FundingObservation {
  const id = String(row.symbol ?? "");
  const info = fundingInfo?.get(id);
  const time = readNumber(row.time);
  const nextFundingTime = readNumber(row.nextFundingTime);
  return {
    symbol: marketsById.get(id)?.symbol ?? id,
    // As on Binance, whose API this is. "0" (delisted and USD-quoted symbols send it) is a rate
    // of zero, not a missing one.
    ...runningEstimate(readNumber(row.lastFundingRate)),
    // JSON numbers or null (no bound stated), per symbol.
    rateCap: readNumber(info?.fundingFeeCap),
    rateFloor: readNumber(info?.fundingFeeFloor),
    interval: asterFundingInterval({
      fundingInfoHours: parseIntervalHours(info?.fundingIntervalHours),
      nextFundingTime,
      time,
    }),
    nextFundingAt: nextFundingTime,
    markPrice: readNumber(row.markPrice),
    indexPrice: readNumber(row.indexPrice),
    // Open interest is per symbol only (/fapi/v1/openInterest); one call per market is not worth it.
    openInterestUsd: undefined,
    volume24hUsd: readNumber(tickers?.get(id)?.quoteVolume),
    observedAt: time ?? fetchedAt,
  };
}
