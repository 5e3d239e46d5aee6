import type { extended } from "ccxt";
import { readNumber, symmetricBounds, type FundingObservation } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { asRecord, indexRows, rowsOf, type VenueAdapter, type CollectContext } from "./venue-adapter";

/**
 * Extended charges funding every hour by protocol rule (docs "Funding Payments": the rate is the
 * average premium ÷ 8, clamped, paid hourly). No field of the market states an interval.
 */
const PROTOCOL_INTERVAL_HOURS = 1;

/**
 * `tradingConfig.hourlyFundingRateCap` is in percent per hour: recorded values are "0.25" (BTC),
 * "1" and "2", which read as fractions would allow 25–200 % an hour. The documented clamp bounds the
 * rate both ways, so the cap is ±value/100 per (hourly) interval. Absent stays absent; garbled
 * becomes NaN, which the snapshot turns into null.
 */
export function extendedRateBounds(tradingConfig: Record<string, unknown> | undefined): {
  rateCap: number | undefined;
  rateFloor: number | undefined;
} {
  const percent = readNumber(tradingConfig?.hourlyFundingRateCap);
  return symmetricBounds(percent === undefined ? undefined : percent / 100);
}

export const extendedAdapter: VenueAdapter<extended> = {
  id: "extended",
  // ccxt's extended class loads currencies from `info/assets` by default; a funding snapshot does
  // not need them, so loadMarkets is the one public `GET /api/v1/info/markets`. ccxt lists an API
  // key and a private key as credentials, but only private endpoints check them.
  create: (lib, config) => new lib.extended(clientConfig(config)),
  async collect(exchange, context) {
    // `info/markets` (the request ccxt's fetchMarkets makes) is also the funding payload: each
    // market's `marketStats` has the rate, the next settlement, prices, open interest and volume.
    // It is requested here on every refresh, raw, so the rates are fresh while ccxt's parsed market
    // list (the unified symbols) is reused; a market the loaded list lacks keeps its name as its
    // symbol, is counted unlisted and has the list reloaded.
    const rows = indexRows(rowsOf(await exchange.v1PublicGetInfoMarkets()), "name");
    const observations: FundingObservation[] = [];
    for (const [id, info] of rows) observations.push(extendedObservation(id, info, context));
    return { observations, warnings: [] };
  },
};

/** One market of the markets list, which carries its funding and stats. */
function extendedObservation(id: string, info: Record<string, unknown>, { marketsById, fetchedAt }: CollectContext): FundingObservation {
  const stats = asRecord(info.marketStats) ?? {};
  return {
    symbol: marketsById.get(id)?.symbol ?? id,
    fundingRate: readNumber(stats.fundingRate),
    ...extendedRateBounds(asRecord(info.tradingConfig)),
    interval: { hours: PROTOCOL_INTERVAL_HOURS, source: "protocol" },
    // Despite its name, `nextFundingRate` is the next settlement's time in epoch ms.
    nextFundingAt: readNumber(stats.nextFundingRate),
    markPrice: readNumber(stats.markPrice),
    indexPrice: readNumber(stats.indexPrice),
    // `openInterest` and `dailyVolume` are already collateral (USDC) amounts; the `…Base`
    // fields count the asset.
    openInterestUsd: readNumber(stats.openInterest),
    volume24hUsd: readNumber(stats.dailyVolume),
    // The market list carries no time.
    observedAt: fetchedAt,
  };
}
