import type { hitbtc, MarketInterface } from "ccxt";
import type { ObservedInterval } from "./build-snapshot";
import { product, readIsoTime, readNumber, type FundingObservation } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { intervalBetweenSettlements } from "./read-interval";
import { asRecord, optional, type VenueAdapter } from "./venue-adapter";

/** A contract's last row of `GET /public/futures/history/funding?limit=1`: when it settled, and when the next one is due. */
export interface HitbtcLastSettlement {
  at: number | undefined;
  next: number | undefined;
}

/** The last settlement of every contract, by id (`{"BTCUSDT_PERP": [{timestamp, next_funding_time, ...}], ...}`). */
export function hitbtcLastSettlements(payload: unknown): Map<string, HitbtcLastSettlement> {
  const byId = asRecord(payload);
  if (!byId) throw new Error("expected an object of funding histories by contract");
  const settlements = new Map<string, HitbtcLastSettlement>();
  for (const [id, rows] of Object.entries(byId)) {
    const last = Array.isArray(rows) ? asRecord(rows[0]) : undefined;
    if (last) settlements.set(id, { at: readIsoTime(last.timestamp), next: readIsoTime(last.next_funding_time) });
  }
  return settlements;
}

/**
 * The interval from the contract's last settlement and the next one its history row names
 * (`schedule`: two consecutive settlement times; HitBTC states no length). It holds for the current
 * period only when the live row's `next_funding_time` is that same next settlement, or the one an
 * interval after it (a settlement the history does not list yet); otherwise it is unknown.
 */
export function hitbtcInterval(nextFundingAt: number | undefined, last: HitbtcLastSettlement | undefined): ObservedInterval | null {
  if (last?.at === undefined || last.next === undefined || nextFundingAt === undefined) return null;
  const interval = intervalBetweenSettlements(last.at, last.next);
  if (interval === null) return null;
  const ahead = nextFundingAt - last.next;
  return ahead === 0 || ahead === interval.hours * 3_600_000 ? interval : null;
}

/**
 * One perpetual from its `GET /public/futures/info` row (https://api.hitbtc.com/#futures-info).
 * `funding_rate` is the rate of the current period, fixed from the previous period's average
 * premium and charged at `next_funding_time`; `indicative_funding_rate` is the running estimate of
 * the period after it. `open_interest` counts the base asset (contract size 1), valued at the mark.
 * No bound on the rate is published. The 24h volume (USDT) comes from the contract's ticker, where
 * that answered.
 */
export function hitbtcObservation(
  market: Pick<MarketInterface, "symbol">,
  row: Record<string, unknown>,
  last: HitbtcLastSettlement | undefined,
  volumeQuote: number | undefined,
): FundingObservation {
  const markPrice = readNumber(row.mark_price);
  const nextFundingAt = readIsoTime(row.next_funding_time);
  return {
    symbol: market.symbol,
    fundingRate: readNumber(row.funding_rate),
    predictedFundingRate: readNumber(row.indicative_funding_rate),
    interval: hitbtcInterval(nextFundingAt, last),
    nextFundingAt,
    markPrice,
    indexPrice: readNumber(row.index_price),
    openInterestUsd: product(readNumber(row.open_interest), markPrice),
    volume24hUsd: volumeQuote,
    observedAt: readIsoTime(row.timestamp),
  };
}

export const hitbtcAdapter: VenueAdapter<hitbtc> = {
  id: "hitbtc",
  // ccxt's fetchMarkets is one `GET /public/symbol` (spot pairs and perpetuals in one object).
  create: (lib, config) => new lib.hitbtc(clientConfig(config)),
  // ccxt marks every symbol active; the row's own `status` says whether it trades (an expired
  // perpetual stays listed, frozen).
  isTradable: (market) => {
    const status = asRecord(market.info)?.status;
    return status === undefined || status === "working";
  },
  async collect(exchange, { marketsById }) {
    const warnings: string[] = [];
    const perpetualIds = [...marketsById.values()].filter((market) => market.swap === true).map((market) => market.id);
    // Every contract's row, beside the last settlement of every contract (the interval's only
    // source: a failure costs the intervals, not the rates) and the perpetuals' tickers (volume).
    const [payload, settlements, tickers] = await Promise.all([
      exchange.publicGetPublicFuturesInfo() as Promise<unknown>,
      optional(warnings, "funding history", async () => hitbtcLastSettlements(await exchange.publicGetPublicFuturesHistoryFunding({ limit: 1 }))),
      optional(warnings, "tickers", async () => asRecord(await exchange.publicGetPublicTicker({ symbols: perpetualIds.join(",") })) ?? {}),
    ]);
    const rows = asRecord(payload);
    if (!rows) throw new Error("expected an object of futures rows by contract");
    const observations = Object.entries(rows).flatMap(([id, value]): FundingObservation[] => {
      const row = asRecord(value);
      if (!row) return [];
      const market = marketsById.get(id);
      const volumeQuote = readNumber(asRecord(tickers?.[id])?.volume_quote);
      return [hitbtcObservation(market ?? { symbol: id }, row, settlements?.get(id), volumeQuote)];
    });
    return { observations, warnings };
  },
};
