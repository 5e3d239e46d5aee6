import type { dydx } from "ccxt";
import { HOUR_MS } from "../../model/funding-interval";
import { product, readNumber, runningEstimate, type FundingObservation } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { asRecord, indexRows, rowsOf, type VenueAdapter, type CollectContext } from "./venue-adapter";

/**
 * dYdX v4 settles funding every hour, on the hour, by protocol rule (its funding-tick epoch is an
 * hour; the indexer's `historicalFunding` rows fall on whole UTC hours). The indexer states no
 * interval field, so the interval's source is `protocol`.
 */
const PROTOCOL_INTERVAL_HOURS = 1;

/** The next whole UTC hour after `at`: the next hourly funding tick. */
export function nextWholeHour(at: number): number {
  return (Math.floor(at / HOUR_MS) + 1) * HOUR_MS;
}

export const dydxAdapter: VenueAdapter<dydx> = {
  id: "dydx",
  // dYdX lists perpetuals only (ccxt marks every market a linear USDC swap), and ccxt's dydx class
  // states `fetchCurrencies: false`; it is repeated here so loadMarkets stays one public request
  // (`GET /v4/perpetualMarkets`) whatever a ccxt release changes. Nothing here signs or needs a key:
  // the private key option only serves order placement.
  create: (lib, config) => new lib.dydx(clientConfig(config)),
  async collect(exchange, context) {
    // The indexer's perpetualMarkets (the request ccxt's fetchMarkets makes) is also the funding
    // payload: `nextFundingRate` (the running hourly rate of the tick to come), oracle price, open
    // interest and 24h volume for every market, keyed by ticker. It is requested here on every
    // refresh, raw, so the rates are fresh while ccxt's parsed market list (the unified symbols)
    // is reused; a ticker the loaded list lacks keeps its id as its symbol, is counted unlisted and
    // has the list reloaded. A garbled answer throws and the venue goes stale.
    const payload = asRecord(await exchange.indexerGetPerpetualMarkets());
    const markets = asRecord(payload?.markets);
    if (!markets) throw new Error('expected perpetual markets under "markets"');
    const rows = indexRows(rowsOf(Object.values(markets)), "ticker");
    const observations: FundingObservation[] = [];
    for (const [id, row] of rows) observations.push(dydxObservation(id, row, context));
    return { observations, warnings: [] };
  },
};

/** One perpetual market of the indexer's list, which carries its funding. */
function dydxObservation(id: string, row: Record<string, unknown>, { marketsById, fetchedAt }: CollectContext): FundingObservation {
  // v4 margins, liquidates and funds at the oracle price: it is the venue's mark and its index.
  const oraclePrice = readNumber(row.oraclePrice);
  return {
    symbol: marketsById.get(id)?.symbol ?? id,
    // The only rate the indexer quotes: its estimate of the tick to come.
    ...runningEstimate(readNumber(row.nextFundingRate)),
    interval: { hours: PROTOCOL_INTERVAL_HOURS, source: "protocol" },
    nextFundingAt: nextWholeHour(fetchedAt),
    markPrice: oraclePrice,
    indexPrice: oraclePrice,
    // `openInterest` counts the base asset; `volume24H` is already USDC notional.
    openInterestUsd: product(readNumber(row.openInterest), oraclePrice),
    volume24hUsd: readNumber(row.volume24H),
    // The indexer's market list carries no time.
    observedAt: fetchedAt,
  };
}
