import type { pacifica } from "ccxt";
import { product, readNumber, type FundingObservation } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { nextWholeHour } from "./dydx";
import { optionalIndex, rowsOf, type VenueAdapter } from "./venue-adapter";

/**
 * Pacifica settles funding every hour, on the hour (its docs' funding page; ccxt's parser states
 * `1h` and dates the next settlement at the next whole hour). No payload field states it.
 */
const PROTOCOL_INTERVAL_HOURS = 1;

/**
 * One perpetual from its `GET /api/v1/info` row (`funding_rate`: the rate settled at the last hour;
 * `next_funding_rate`: the running estimate of the coming one) and, where that answered, its
 * `GET /api/v1/info/prices` row (mark, oracle, open interest in the base asset, 24h USD volume).
 * `funding_rate` is not served as the last settlement: the row does not say which hour it settled
 * at, and a refresh just past the hour may still see the previous one; the rounds see each
 * settlement happen instead.
 */
export function pacificaObservation(
  symbol: string,
  row: Record<string, unknown>,
  prices: Record<string, unknown> | undefined,
  fetchedAt: number,
): FundingObservation {
  const markPrice = readNumber(prices?.mark);
  const pricedAt = readNumber(prices?.timestamp);
  const observedAt = pricedAt !== undefined && Number.isFinite(pricedAt) ? pricedAt : fetchedAt;
  return {
    symbol,
    // The rate accruing toward the coming settlement is the one an opportunity earns; it is also
    // Pacifica's forecast.
    fundingRate: readNumber(row.next_funding_rate),
    predictedFundingRate: readNumber(row.next_funding_rate),
    interval: { hours: PROTOCOL_INTERVAL_HOURS, source: "protocol" },
    nextFundingAt: nextWholeHour(observedAt),
    markPrice,
    indexPrice: readNumber(prices?.oracle),
    openInterestUsd: product(readNumber(prices?.open_interest), markPrice),
    volume24hUsd: readNumber(prices?.volume_24h),
    // The prices row's time; the market list carries none.
    observedAt,
  };
}

export const pacificaAdapter: VenueAdapter<pacifica> = {
  id: "pacifica",
  // ccxt's fetchMarkets is the one `GET /api/v1/info` (perpetuals and spot pairs in one list; spot
  // ones come out as spot and are excluded).
  create: (lib, config) => new lib.pacifica(clientConfig(config)),
  async collect(exchange, { marketsById, fetchedAt }) {
    const warnings: string[] = [];
    // The market list carries each perpetual's settled and next rate, so it is asked again raw on
    // every refresh (the parsed list is kept for minutes); `info/prices` adds prices, open interest
    // and volume, and its failure costs only those. One credit each of Pacifica's 100 a minute.
    const [info, prices] = await Promise.all([
      exchange.publicGetInfo(),
      optionalIndex(warnings, "prices", "symbol", () => exchange.publicGetInfoPrices()),
    ]);
    const observations = rowsOf(info)
      .filter((row) => row.instrument_type !== "spot")
      .map((row): FundingObservation => {
        const id = String(row.symbol ?? "");
        return pacificaObservation(marketsById.get(id)?.symbol ?? id, row, prices?.get(id), fetchedAt);
      });
    return { observations, warnings };
  },
};
