import type { gate } from "ccxt";
import { readNumber, symmetricBounds, type FundingObservation } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { asRecord, indexRows, optionalIndex, rowsOf, type VenueAdapter, type CollectContext, type IndexedRows } from "./venue-adapter";

export const gateAdapter: VenueAdapter<gate> = {
  id: "gate",
  create: (lib, config) =>
    new lib.gate(
      clientConfig(config, {
        fetchMarkets: { types: ["swap"] },
        // BTC-settled swaps are inverse; only the USDT book is linear.
        swap: { fetchMarkets: { settlementCurrencies: ["usdt"] } },
      }),
    ),
  // Gate flags a contract being wound down with `in_delisting`; ccxt only reads `status`.
  isTradable: (market) => asRecord(market.info)?.in_delisting !== true,
  async collect(exchange, context) {
    const warnings: string[] = [];
    // The USDT contract list (/futures/usdt/contracts, the request ccxt's fetchMarkets makes) is
    // the funding payload: rate, interval, next settlement, prices and position size. It is
    // requested here on every refresh, raw, so the rates are fresh while ccxt's parsed market list
    // (the unified symbols) is reused; a contract the loaded list lacks keeps its id as its symbol,
    // is counted unlisted and has the list reloaded.
    const [contracts, tickers] = await Promise.all([
      exchange.publicFuturesGetSettleContracts({ settle: "usdt" }).then((payload) => indexRows(rowsOf(payload), "name")),
      optionalIndex(warnings, "tickers", "contract", () => exchange.publicFuturesGetSettleTickers({ settle: "usdt" })),
    ]);
    const observations: FundingObservation[] = [];
    for (const [id, row] of contracts) observations.push(gateObservation(id, row, context, tickers));
    return { observations, warnings };
  },
};

/** One contract of the contracts list, which carries its funding, with its volume from the tickers. */
function gateObservation(id: string, row: Record<string, unknown>, { marketsById, fetchedAt }: CollectContext, tickers: IndexedRows | undefined): FundingObservation {
  const intervalSeconds = readNumber(row.funding_interval);
  const nextApplySeconds = readNumber(row.funding_next_apply);
  const markPrice = readNumber(row.mark_price);
  const positionSize = readNumber(row.position_size);
  const multiplier = readNumber(row.quanto_multiplier);
  return {
    symbol: marketsById.get(id)?.symbol ?? id,
    fundingRate: readNumber(row.funding_rate),
    // Gate's "indicative" rate: its forecast of the next period's.
    predictedFundingRate: readNumber(row.funding_rate_indicative),
    // `funding_rate_limit`, where sent, bounds the rate both ways.
    ...symmetricBounds(readNumber(row.funding_rate_limit)),
    // Gate states the interval in seconds (28800, 14400, 3600).
    interval:
      intervalSeconds !== undefined && intervalSeconds > 0
        ? { hours: intervalSeconds / 3600, source: "venue" }
        : null,
    nextFundingAt: nextApplySeconds === undefined ? undefined : nextApplySeconds * 1000,
    markPrice,
    indexPrice: readNumber(row.index_price),
    // `position_size` counts contracts of `quanto_multiplier` base units each.
    openInterestUsd:
      positionSize === undefined || multiplier === undefined || markPrice === undefined
        ? undefined
        : positionSize * multiplier * markPrice,
    volume24hUsd: readNumber(tickers?.get(id)?.volume_24h_quote),
    observedAt: fetchedAt,
  };
}
