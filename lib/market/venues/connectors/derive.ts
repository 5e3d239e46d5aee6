import { product, readNumber, type FundingObservation } from "./build-snapshot";
import { nextWholeHour } from "./dydx";
import { httpMarket } from "./http-market";
import type { HttpClient } from "./http-client";
import { tickerPerMarket } from "./ticker-per-market";
import { asRecord, rowsOf, type HttpMarket, type HttpVenueAdapter } from "./venue-adapter";

/**
 * Derive funds hourly: its funding history has one row per whole UTC hour and its bounds are stated
 * per hour (`max_rate_per_hour`). No field states the interval, so its source is `protocol`.
 */
const PROTOCOL_INTERVAL_HOURS = 1;

/** Derive's largest page of `get_all_instruments` (its docs: 100 by default, at most 1000). */
const PAGE_SIZE = 1_000;

function toMarket(row: Record<string, unknown>): HttpMarket {
  const id = typeof row.instrument_name === "string" ? row.instrument_name : "";
  const base = String(row.base_currency ?? "").toUpperCase();
  // Perpetuals are quoted in USD and margined and settled in USDC (ccxt's derive class settles them
  // in USDC too). As on Paradex, the USD is the USDC collateral, so the quote is spelt USDC.
  const quote = String(row.quote_currency ?? "").toUpperCase() === "USD" ? "USDC" : String(row.quote_currency ?? "");
  const swap = row.instrument_type === "perp";
  const taker = readNumber(row.taker_fee_rate);
  return httpMarket(id, { base, quote, settle: "USDC" }, swap, {
    linear: true,
    expiry: undefined,
    active: typeof row.is_active === "boolean" ? row.is_active : undefined,
    // Each instrument states its taker fee (a flat `base_fee` in USD per trade comes on top).
    taker: taker !== undefined && Number.isFinite(taker) && taker >= 0 ? taker : undefined,
    info: row,
  });
}

/** The `result` of a `get_ticker` answer, checked to be the instrument asked for. */
export function deriveTicker(payload: unknown, instrument: string): Record<string, unknown> {
  const result = asRecord(asRecord(payload)?.result);
  if (!result) throw new Error('get_ticker: expected an object under "result"');
  if (result.instrument_name !== instrument) throw new Error(`get_ticker: asked for ${instrument}, got ${String(result.instrument_name)}`);
  return result;
}

/** One perpetual's observation from its `get_ticker` result. */
export function deriveObservation(market: HttpMarket, ticker: Record<string, unknown>, fetchedAt: number): FundingObservation {
  const perp = asRecord(ticker.perp_details);
  const stats = asRecord(ticker.stats);
  const markPrice = readNumber(ticker.mark_price);
  const observedAt = readNumber(ticker.timestamp);
  return {
    symbol: market.symbol,
    // The hourly rate accruing now; Derive publishes no forecast beside it.
    fundingRate: readNumber(perp?.funding_rate),
    predictedFundingRate: undefined,
    // Per hour, like the rate.
    rateCap: readNumber(perp?.max_rate_per_hour),
    rateFloor: readNumber(perp?.min_rate_per_hour),
    interval: { hours: PROTOCOL_INTERVAL_HOURS, source: "protocol" },
    nextFundingAt: nextWholeHour(observedAt !== undefined && Number.isFinite(observedAt) ? observedAt : fetchedAt),
    markPrice,
    indexPrice: readNumber(ticker.index_price),
    // `open_interest` and the 24h `contract_volume` count the base asset; valued at the mark.
    openInterestUsd: product(readNumber(stats?.open_interest), markPrice),
    volume24hUsd: product(readNumber(stats?.contract_volume), markPrice),
    observedAt: observedAt ?? fetchedAt,
  };
}

async function listPerpetuals(http: HttpClient): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for (let page = 1; ; page += 1) {
    const result = asRecord(
      asRecord(await http.postJson("/public/get_all_instruments", { expired: false, instrument_type: "perp", page, page_size: PAGE_SIZE }))
        ?.result,
    );
    rows.push(...rowsOf(result, "instruments"));
    const pages = readNumber(asRecord(result?.pagination)?.num_pages);
    if (pages === undefined || !Number.isFinite(pages) || page >= pages) return rows;
  }
}

/**
 * Derive (formerly Lyra) over plain HTTP, JSON-RPC style POSTs with no key. `get_all_instruments`
 * lists the perpetuals; each one's live funding (`perp_details`: the hourly rate and its bounds) is
 * only in its own `get_ticker`, so a refresh asks one ticker per perpetual, its share of them at a
 * time (tickerPerMarket).
 */
export const deriveAdapter: HttpVenueAdapter = {
  kind: "http",
  id: "derive",
  baseUrl: "https://api.lyra.finance",
  // Derive publishes no per-IP figure; ccxt's derive class throttles at 50 ms.
  requestSpacingMs: 50,
  keepsMarketList: true,
  async loadMarkets(http) {
    return (await listPerpetuals(http)).map(toMarket);
  },
  async collect(http, { marketsById, fetchedAt }) {
    const perpetuals = [...marketsById.values()].filter((market) => market.swap === true && market.active !== false);
    return tickerPerMarket("derive", http, perpetuals, fetchedAt, async (market) =>
      deriveObservation(market, deriveTicker(await http.postJson("/public/get_ticker", { instrument_name: market.id }), market.id), fetchedAt),
    );
  },
};
