import type { hyperliquid, MarketInterface } from "ccxt";
import { HOUR_MS, parseIntervalHours } from "../../model/funding-interval";
import { product, readNumber, symmetricBounds, type FundingObservation, type ObservedInterval } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { asRecord, optional, type VenueAdapter, type IndexedRows } from "./venue-adapter";

/** Hyperliquid's own venue inside `predictedFundings` (the others are Binance and Bybit). */
const OWN_VENUE = "HlPerp";
/** Funding settles every hour by protocol rule. */
const PROTOCOL_INTERVAL_HOURS = 1;

/** Funding is capped at 4 % an hour both ways by protocol rule (Hyperliquid's funding documentation). */
const PROTOCOL_RATE_LIMIT_PER_HOUR = 0.04;

interface PredictedFunding {
  fundingRate: number | undefined;
  fundingIntervalHours: number | null;
  nextFundingTime: number | undefined;
}

/**
 * `predictedFundings` is `[[coin, [[venue, {fundingRate, nextFundingTime, fundingIntervalHours} |
 * null], …]], …]`; only Hyperliquid's own entry per coin matters here.
 */
export function parsePredictedFundings(payload: unknown): Map<string, PredictedFunding> {
  if (!Array.isArray(payload)) throw new Error("predictedFundings: expected a list");
  const byCoin = new Map<string, PredictedFunding>();
  for (const entry of payload) {
    if (!Array.isArray(entry) || typeof entry[0] !== "string" || !Array.isArray(entry[1])) continue;
    for (const venue of entry[1]) {
      if (!Array.isArray(venue) || venue[0] !== OWN_VENUE) continue;
      const data = asRecord(venue[1]);
      if (!data) continue;
      byCoin.set(entry[0], {
        fundingRate: readNumber(data.fundingRate),
        fundingIntervalHours: parseIntervalHours(data.fundingIntervalHours),
        nextFundingTime: readNumber(data.nextFundingTime),
      });
    }
  }
  return byCoin;
}

/**
 * `predictedFundings` states each coin's interval; without it (call failed, coin not listed yet)
 * the protocol's fixed hourly settlement applies, the same rule ccxt hard-codes.
 */
export function hyperliquidFundingInterval(
  predicted: PredictedFunding | undefined,
): ObservedInterval {
  if (predicted?.fundingIntervalHours != null) return { hours: predicted.fundingIntervalHours, source: "venue" };
  return { hours: PROTOCOL_INTERVAL_HOURS, source: "protocol" };
}

// Settlements fall on every whole UTC hour.
function nextWholeHour(at: number): number {
  return (Math.floor(at / HOUR_MS) + 1) * HOUR_MS;
}

/**
 * `metaAndAssetCtxs` is `[{universe: [{name, …}]}, [context, …]]`, the i-th context the i-th
 * universe entry's: each context by its coin name.
 */
export function parseAssetContexts(payload: unknown): Map<string, Record<string, unknown>> {
  const [meta, contexts] = Array.isArray(payload) ? payload : [];
  const universe = asRecord(meta)?.universe;
  if (!Array.isArray(universe) || !Array.isArray(contexts)) throw new Error("metaAndAssetCtxs: expected [meta with a universe, contexts]");
  const byCoin = new Map<string, Record<string, unknown>>();
  universe.forEach((entry, i) => {
    const name = asRecord(entry)?.name;
    const context = asRecord(contexts[i]);
    if (typeof name === "string" && context) byCoin.set(name, context);
  });
  return byCoin;
}

export const hyperliquidAdapter: VenueAdapter<hyperliquid> = {
  id: "hyperliquid",
  // Core perps only: spot has no funding and HIP-3 dexes are separate books.
  create: (lib, config) => new lib.hyperliquid(clientConfig(config, { fetchMarkets: { types: ["swap"] } })),
  venueBase: (market) => {
    const name = asRecord(market.info)?.name;
    return typeof name === "string" && name !== "" ? name : market.base;
  },
  async collect(exchange, context) {
    const warnings: string[] = [];
    // The market list ccxt loads is metaAndAssetCtxs, the funding payload itself (each asset's
    // context: funding, markPx, oraclePx, openInterest, dayNtlVlm), but the list is kept for
    // MARKETS_TTL_MS: read from it, a refresh would publish figures up to that old as fresh. So
    // every refresh asks for the contexts again and joins them to the list by coin name.
    const [contexts, predicted] = await Promise.all([
      exchange.publicPostInfo({ type: "metaAndAssetCtxs" }).then(parseAssetContexts),
      optional(warnings, "predictedFundings", async () => parsePredictedFundings(await exchange.publicPostInfo({ type: "predictedFundings" }))),
    ]);
    const observations: FundingObservation[] = [];
    for (const market of context.marketsById.values()) observations.push(hyperliquidObservation(market, contexts, predicted, context.fetchedAt));
    return { observations, warnings };
  },
};

/** One listed market, with its funding and prices from the asset contexts and its next rate from the predicted fundings. */
function hyperliquidObservation(market: MarketInterface, contexts: IndexedRows, predicted: ReadonlyMap<string, PredictedFunding> | undefined, fetchedAt: number): FundingObservation {
  const coin = String(asRecord(market.info)?.name ?? "");
  const row = contexts.get(coin) ?? {};
  const markPrice = readNumber(row.markPx);
  const own = predicted?.get(coin);
  const interval = hyperliquidFundingInterval(own);
  return {
    symbol: market.symbol,
    fundingRate: readNumber(row.funding),
    predictedFundingRate: own?.fundingRate,
    ...symmetricBounds(PROTOCOL_RATE_LIMIT_PER_HOUR * interval.hours),
    interval,
    nextFundingAt: own?.nextFundingTime ?? nextWholeHour(fetchedAt),
    markPrice,
    indexPrice: readNumber(row.oraclePx),
    // `openInterest` is in coins; `dayNtlVlm` is already notional.
    openInterestUsd: product(readNumber(row.openInterest), markPrice),
    volume24hUsd: readNumber(row.dayNtlVlm),
    observedAt: fetchedAt,
  };
}
