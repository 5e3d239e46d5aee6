import { parseIntervalHours } from "../../model/funding-interval";
import { product, readNumber, runningEstimate, type FundingObservation, type ObservedInterval } from "./build-snapshot";
import { httpMarket } from "./http-market";
import { intervalBetweenSettlements, statedInterval } from "./read-interval";
import { asRecord, optional, indexRows, rowsOf, type HttpMarket, type HttpVenueAdapter } from "./venue-adapter";

/** Orderly's public answers: `{success, timestamp?, data: {rows: [...]}}`. */
function orderlyRows(payload: unknown): Record<string, unknown>[] {
  return rowsOf(asRecord(payload)?.data, "rows");
}

/**
 * `PERP_<BASE>_<QUOTE>`: every Orderly market is a linear perpetual margined and settled in its
 * quote (USDC), as ccxt's woofipro class reads the id; anything else the list carried would be
 * counted as excluded.
 */
function toMarket(row: Record<string, unknown>): HttpMarket {
  const id = typeof row.symbol === "string" ? row.symbol : "";
  const [kind = "", base = "", quote = ""] = id.split("_");
  return httpMarket(id, { base, quote, settle: quote }, kind === "PERP", {
    linear: true,
    expiry: undefined,
    // The list names only markets open to trade; it has no status field.
    active: undefined,
    // The fee is Orderly's base fee plus each builder's own (venue-fees.ts): no row states it.
    taker: undefined,
    info: row,
  });
}

/**
 * `funding_period` (hours: 1, 4 or 8 per market, from `GET /v1/public/info`) is the interval;
 * without it, the distance from the last settlement to the next one.
 */
export function orderlyFundingInterval(info: Record<string, unknown> | undefined, rate: Record<string, unknown>): ObservedInterval | null {
  return (
    statedInterval(parseIntervalHours(info?.funding_period)) ??
    intervalBetweenSettlements(rate.last_funding_rate_timestamp, rate.next_funding_time)
  );
}

/**
 * The settlement `last_funding_rate` is of, where the row dates it: the venue's own word, served
 * until the rounds have seen one happen.
 */
function statedSettlement(rate: Record<string, unknown>): { rate: number; at: number } | undefined {
  const settled = readNumber(rate.last_funding_rate);
  const at = readNumber(rate.last_funding_rate_timestamp);
  if (settled === undefined || at === undefined || !Number.isFinite(settled) || !Number.isInteger(at) || at <= 0) return undefined;
  return { rate: settled, at };
}

/**
 * One perpetual from its `GET /v1/public/funding_rates` row, its market's `GET /v1/public/info`
 * row (interval, bounds) and, where that answered, its `GET /v1/public/futures` row (prices, open
 * interest, volume).
 */
export function orderlyObservation(
  symbol: string,
  rate: Record<string, unknown>,
  info: Record<string, unknown> | undefined,
  ticker: Record<string, unknown> | undefined,
  observedAt: number,
): FundingObservation {
  const markPrice = readNumber(ticker?.mark_price);
  return {
    symbol,
    // `est_funding_rate`: the running estimate of the rate settling at `next_funding_time`, per
    // funding period (Orderly's formula scales the interest part by the period); Orderly's only
    // current rate, so also its forecast.
    ...runningEstimate(readNumber(rate.est_funding_rate)),
    // `cap_funding`/`floor_funding` clamp the rate per funding period.
    rateCap: readNumber(info?.cap_funding),
    rateFloor: readNumber(info?.floor_funding),
    interval: orderlyFundingInterval(info, rate),
    nextFundingAt: readNumber(rate.next_funding_time),
    lastSettlement: statedSettlement(rate),
    markPrice,
    indexPrice: readNumber(ticker?.index_price),
    // `open_interest` counts the base asset; `24h_amount` is the 24h turnover in USDC.
    openInterestUsd: product(readNumber(ticker?.open_interest), markPrice),
    volume24hUsd: readNumber(ticker?.["24h_amount"]),
    observedAt,
  };
}

/**
 * Orderly's one order book (the CLOB every builder's front end, WOOFi Pro and Mode among them,
 * trades on) over plain HTTP: ccxt has it only as those builders' classes, each with its broker id.
 * `GET /v1/public/info` lists the markets with each one's interval and bounds (kept with the
 * market list); each refresh asks `GET /v1/public/funding_rates` (every market's rates and times)
 * beside `GET /v1/public/futures` (prices, open interest, volume), whose failure costs only those.
 */
export const orderlyAdapter: HttpVenueAdapter = {
  kind: "http",
  id: "orderly",
  baseUrl: "https://api.orderly.org",
  requestSpacingMs: 100,
  keepsMarketList: true,
  async loadMarkets(http) {
    return orderlyRows(await http.getJson("/v1/public/info")).map(toMarket);
  },
  async collect(http, { marketsById, fetchedAt }) {
    const warnings: string[] = [];
    const [payload, futures] = await Promise.all([
      http.getJson("/v1/public/funding_rates"),
      optional(warnings, "futures", async () => indexRows(orderlyRows(await http.getJson("/v1/public/futures")), "symbol")),
    ]);
    const rates = orderlyRows(payload);
    const answeredAt = readNumber(asRecord(payload)?.timestamp);
    const observedAt = answeredAt !== undefined && Number.isFinite(answeredAt) ? answeredAt : fetchedAt;
    const observations = rates.map((rate): FundingObservation => {
      const id = String(rate.symbol ?? "");
      const market = marketsById.get(id);
      return orderlyObservation(market?.symbol ?? id, rate, market?.info, futures?.get(id), observedAt);
    });
    return { observations, warnings };
  },
};
