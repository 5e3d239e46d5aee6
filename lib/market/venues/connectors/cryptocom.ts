import type { cryptocom, MarketInterface } from "ccxt";
import { product, readNumber, type FundingObservation } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { nextWholeHour } from "./dydx";
import { tickerPerMarket } from "./ticker-per-market";
import { asRecord, optionalIndex, rowsOf, type VenueAdapter } from "./venue-adapter";

/**
 * Crypto.com settles perpetual funding at the end of every hour (its get-valuations docs:
 * `funding_rate` is "the current hourly funding rate that will settle at the end of each hour of the
 * current 4-hour interval"; `funding_hist` is hourly; ccxt states `1h`). No field states it.
 */
const PROTOCOL_INTERVAL_HOURS = 1;

/** The one `{v, t}` point of a `public/get-valuations` answer, checked to be the instrument asked for. */
export function cryptocomValuation(payload: unknown, instrument: string): { v: unknown; t: unknown } {
  const result = asRecord(asRecord(payload)?.result);
  if (!result) throw new Error('valuation: expected an object under "result"');
  if (result.instrument_name !== instrument) throw new Error(`valuation: asked for ${instrument}, got ${String(result.instrument_name)}`);
  const [point] = rowsOf(result);
  if (!point) throw new Error(`valuation: no data point for ${instrument}`);
  return { v: point.v, t: point.t };
}

/**
 * One perpetual from its `funding_rate` valuation (the hour's rate, fixed for the current 4-hour
 * interval and settled at the end of the hour) and its `public/get-tickers` row, where that
 * answered. The tickers carry no mark or index price (each is one more valuation request a
 * perpetual): `markPrice` and `indexPrice` stay unknown, and the last trade (`a`) only sizes the open
 * interest (`oi`, in the base asset) in dollars. `vv` is the 24h volume in USD.
 */
export function cryptocomObservation(
  market: Pick<MarketInterface, "symbol">,
  valuation: { v: unknown; t: unknown },
  ticker: Record<string, unknown> | undefined,
): FundingObservation {
  const observedAt = readNumber(valuation.t);
  return {
    symbol: market.symbol,
    fundingRate: readNumber(valuation.v),
    // `estimated_funding_rate` (the next interval's estimate) is one more request a perpetual, which
    // would double the refresh's cost against the method's 100 a second; not asked.
    predictedFundingRate: undefined,
    interval: { hours: PROTOCOL_INTERVAL_HOURS, source: "protocol" },
    // The valuation is a per-minute point within the hour; the hour settles at its end.
    nextFundingAt: observedAt !== undefined && Number.isFinite(observedAt) ? nextWholeHour(observedAt) : observedAt,
    markPrice: undefined,
    indexPrice: undefined,
    ...tickerExtras(ticker),
    observedAt,
  };
}

function tickerExtras(ticker: Record<string, unknown> | undefined): Pick<FundingObservation, "openInterestUsd" | "volume24hUsd"> {
  return { openInterestUsd: product(readNumber(ticker?.oi), readNumber(ticker?.a)), volume24hUsd: readNumber(ticker?.vv) };
}

export const cryptocomAdapter: VenueAdapter<cryptocom> = {
  id: "cryptocom",
  // ccxt's fetchMarkets is one `public/get-instruments` (spot pairs, perpetuals and dated futures in
  // one list); only perpetuals are read below.
  create: (lib, config) => new lib.cryptocom(clientConfig(config)),
  // Crypto.com's perpetuals (`BTCUSD-PERP`) are quoted and settled in USD against its multi-asset
  // margin, as Kraken's `PF_` ones.
  alsoDollars: ["USD"],
  async collect(exchange, { marketsById, fetchedAt }) {
    const warnings: string[] = [];
    const perpetuals = [...marketsById.values()].filter((market) => market.swap === true && market.active !== false);
    // No all-instrument funding answer: one `funding_rate` valuation per perpetual (a refresh's share
    // of them, tickerPerMarket), beside one all-instrument tickers answer whose failure costs the extras.
    const [tickers, collection] = await Promise.all([
      optionalIndex(warnings, "tickers", "i", async () => asRecord(await exchange.v1PublicGetPublicGetTickers())?.result),
      tickerPerMarket("cryptocom", exchange, perpetuals, fetchedAt, async (market) => {
        const id = String(market.id);
        const payload = await exchange.v1PublicGetPublicGetValuations({ instrument_name: id, valuation_type: "funding_rate", count: 1 });
        return cryptocomObservation(market, cryptocomValuation(payload, id), undefined);
      }),
    ]);
    const idBySymbol = new Map(perpetuals.map((market) => [market.symbol, market.id]));
    const observations = collection.observations.map((observation) => {
      const id = idBySymbol.get(observation.symbol);
      return { ...observation, ...tickerExtras(id === undefined ? undefined : tickers?.get(id)) };
    });
    return { observations, warnings: [...collection.warnings, ...warnings] };
  },
};
