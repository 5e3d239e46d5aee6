import { parseIntervalHours } from "../../model/funding-interval";
import { readNumber } from "./build-snapshot";
import { httpMarket, observeListing } from "./http-market";
import { statedInterval } from "./read-interval";
import { asRecord, rowsOf, type HttpMarket, type HttpVenueAdapter } from "./venue-adapter";

/** BitMart's success code inside a 200 answer; anything else is an error it reports in the body. */
const OK_CODE = 1000;

/** `product_type` of a perpetual (2 is a dated future). */
const PERPETUAL = 1;

function toMarket(row: Record<string, unknown>): HttpMarket {
  const id = typeof row.symbol === "string" ? row.symbol : "";
  const base = String(row.base_currency ?? "").toUpperCase();
  const quote = String(row.quote_currency ?? "").toUpperCase();
  // BitMart's futures are margined and settled in their quote currency (USDT); the row states no
  // separate settlement currency. A quote other than USDT/USDC then fails the linear-perp test.
  const settle = quote;
  const swap = row.product_type === PERPETUAL;
  const expiry = readNumber(row.expire_timestamp);
  // Dated futures are only counted as excluded.
  return httpMarket(id, { base, quote, settle }, swap, {
    linear: true,
    // 0 for perpetuals.
    expiry: expiry === undefined || expiry === 0 ? undefined : expiry,
    // "Trading" or "Delisted"; older answers sent no status.
    active: typeof row.status === "string" ? row.status === "Trading" : undefined,
    // The public contract list states no fee: left unknown, never assumed.
    taker: undefined,
    info: row,
  });
}

/**
 * BitMart futures (v2 API) over plain HTTP (the installed ccxt has no bitmart class).
 * `GET /contract/public/details` lists every contract with its funding fields, so it is the market
 * list and the funding payload at once: one request per refresh. It carries no mark price (only
 * `last_price` and `index_price`) and no rate bounds; the per-symbol `/contract/public/funding-rate`
 * states the bounds, at one request per contract, and is not called.
 */
export const bitmartAdapter: HttpVenueAdapter = {
  kind: "http",
  id: "bitmart",
  baseUrl: "https://api-cloud-v2.bitmart.com",
  // BitMart allows 12 requests per 2 s per IP on its public contract endpoints.
  requestSpacingMs: Math.ceil(2_000 / 12),
  async loadMarkets(http) {
    const payload = asRecord(await http.getJson("/contract/public/details"));
    if (payload?.code !== OK_CODE) {
      throw new Error(`contract details: code ${String(payload?.code)} (${String(payload?.message ?? "no message")})`);
    }
    return rowsOf(asRecord(payload.data), "symbols").map(toMarket);
  },
  async collect(_http, { marketsById, fetchedAt }) {
    return observeListing(marketsById, (row, market) => ({
      symbol: market.symbol,
      // The rate in force for the coming settlement (`funding_time`); `expected_funding_rate` is
      // BitMart's forecast of the next one.
      fundingRate: readNumber(row.funding_rate),
      predictedFundingRate: readNumber(row.expected_funding_rate),
      interval: statedInterval(parseIntervalHours(row.funding_interval_hours)),
      // Milliseconds.
      nextFundingAt: readNumber(row.funding_time),
      markPrice: undefined,
      indexPrice: readNumber(row.index_price),
      // Both in the quote currency (USDT) already.
      openInterestUsd: readNumber(row.open_interest_value),
      volume24hUsd: readNumber(row.turnover_24h),
      // The contract list carries no time.
      observedAt: fetchedAt,
    }));
  },
};
