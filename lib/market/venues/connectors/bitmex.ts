import { HOUR_MS } from "../../model/funding-interval";
import { readIsoTime, readNumber } from "./build-snapshot";
import { httpMarket, observeListing } from "./http-market";
import { statedInterval } from "./read-interval";
import { rowsOf, type HttpMarket, type HttpVenueAdapter } from "./venue-adapter";

/**
 * BitMEX's own currency codes that differ from the unified ones: it calls bitcoin XBT, and settles
 * in XBt (satoshis) and USDt (micro-USDT). The base must be BTC for BitMEX's XBTUSDT to pair with
 * other venues' BTC; the market id keeps the venue's spelling.
 */
const UNIFIED_CODES: Readonly<Record<string, string>> = { XBT: "BTC", XBt: "BTC", USDt: "USDT" };

/** Instrument types that are perpetual swaps: FFWCSX, and FFWCSF for FX underliers. */
const PERPETUAL_TYPES = new Set(["FFWCSX", "FFWCSF"]);

/** BitMEX writes a span as a time on 2000-01-01: "2000-01-01T08:00:00.000Z" is 8 hours. */
const SPAN_EPOCH_MS = Date.UTC(2000, 0, 1);

function unifiedCode(value: unknown): string {
  const code = typeof value === "string" ? value : "";
  return UNIFIED_CODES[code] ?? code.toUpperCase();
}

/** `fundingInterval` as hours, or `null` when absent, garbled or not after 2000-01-01T00:00Z. */
export function bitmexIntervalHours(value: unknown): number | null {
  const at = readIsoTime(value);
  if (at === undefined || !Number.isFinite(at)) return null;
  const hours = (at - SPAN_EPOCH_MS) / HOUR_MS;
  return hours > 0 ? hours : null;
}

function toMarket(row: Record<string, unknown>): HttpMarket {
  const id = typeof row.symbol === "string" ? row.symbol : "";
  const base = unifiedCode(row.underlying);
  const quote = unifiedCode(row.quoteCurrency);
  const settle = unifiedCode(row.settlCurrency);
  const swap = PERPETUAL_TYPES.has(String(row.typ));
  const taker = readNumber(row.takerFee);
  // Other instruments (futures, spot) are only counted as excluded.
  return httpMarket(id, { base, quote, settle }, swap, {
    // Inverse (XBTUSD settles in XBt) and quanto contracts pay in another unit than their quote.
    linear: row.isInverse === false && row.isQuanto === false,
    expiry: readIsoTime(row.expiry),
    active: typeof row.state === "string" ? row.state === "Open" : undefined,
    // The instrument states its base-tier taker fee.
    taker: taker !== undefined && Number.isFinite(taker) && taker >= 0 ? taker : undefined,
    info: row,
  });
}

/**
 * The instrument fields the adapter reads (toMarket and collect), asked for by name: an instrument
 * has ~80 (fees, lot and tick sizes, settlement symbols, prices of every kind), ~1,900 bytes of
 * which these are ~460, and every byte of the answer is parsed each refresh. BitMEX's `columns`
 * takes a comma-separated list and always adds the row's keys (`symbol`).
 */
export const BITMEX_INSTRUMENT_COLUMNS = [
  "symbol",
  "typ",
  "state",
  "underlying",
  "quoteCurrency",
  "settlCurrency",
  "isInverse",
  "isQuanto",
  "expiry",
  "takerFee",
  "fundingRate",
  "indicativeFundingRate",
  "fundingInterval",
  "fundingTimestamp",
  "markPrice",
  "indicativeSettlePrice",
  "openValue",
  "quoteToSettleMultiplier",
  "foreignNotional24h",
  "timestamp",
] as const;

/**
 * BitMEX over plain HTTP (the installed ccxt has no bitmex class). `GET /api/v1/instrument/active`
 * lists every active instrument with its funding fields, so it is the market list and the funding
 * payload at once: one request per refresh, for the columns read.
 */
export const bitmexAdapter: HttpVenueAdapter = {
  kind: "http",
  id: "bitmex",
  baseUrl: "https://www.bitmex.com",
  // BitMEX allows unauthenticated REST clients 30 requests a minute: one every 2 s.
  requestSpacingMs: 2_000,
  async loadMarkets(http) {
    return rowsOf(await http.getJson("/api/v1/instrument/active", { columns: BITMEX_INSTRUMENT_COLUMNS.join(",") })).map(toMarket);
  },
  async collect(_http, { marketsById, fetchedAt }) {
    return observeListing(marketsById, (row, market) => {
      const quoteToSettle = readNumber(row.quoteToSettleMultiplier);
      const openValue = readNumber(row.openValue);
      return {
        symbol: market.symbol,
        // The rate fixed for the coming settlement (`fundingTimestamp`); `indicativeFundingRate`
        // is BitMEX's forecast of the one after it.
        fundingRate: readNumber(row.fundingRate),
        predictedFundingRate: readNumber(row.indicativeFundingRate),
        interval: statedInterval(bitmexIntervalHours(row.fundingInterval)),
        nextFundingAt: readIsoTime(row.fundingTimestamp),
        markPrice: readNumber(row.markPrice),
        // The index the fair (mark) price is built on: mark = indicativeSettlePrice + fairBasis.
        indexPrice: readNumber(row.indicativeSettlePrice),
        // `openValue` counts the settlement currency's smallest unit (USDt, a millionth of a USDT);
        // `quoteToSettleMultiplier` is how many of those make one quote unit.
        openInterestUsd:
          openValue === undefined || quoteToSettle === undefined || quoteToSettle <= 0 ? undefined : openValue / quoteToSettle,
        // Quote-currency (USDT) notional; `turnover24h` is the same in USDt.
        volume24hUsd: readNumber(row.foreignNotional24h),
        observedAt: readIsoTime(row.timestamp) ?? fetchedAt,
      };
    });
  },
};
