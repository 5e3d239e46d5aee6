import type { HistoryMarket, VenueHistoryReader } from "../history-types";
import { at, cursorNumber, decimal, epochMs, rowsAt, unexpectedAnswer, withQuery } from "./read-fields";

const PAGE_SIZE = 100;

/**
 * The funding-rate symbol Phemex files a market's history under: `.<id>FR8H` for a USDT/USDC
 * perpetual (`.BTCUSDTFR8H`) and `.<base>FR8H` for a coin-margined one (`.BTCFR8H`). "8H" is part
 * of the name whatever the market's interval.
 */
export function phemexFundingSymbol(market: HistoryMarket): string {
  const settle = market.market.split(":")[1];
  return settle === market.base ? `.${market.base}FR8H` : `.${market.venueMarketId}FR8H`;
}

/**
 * Phemex `GET /api-data/public/data/funding-rate-history`: ascending by `fundingTime`, at most
 * `limit` 100 rows from `start` (inclusive) up to `end`, so the next page starts 1 ms after the last
 * row. `intervalSeconds` states each settlement's interval (the symbol's "FR8H" does not). The
 * documented answer writes `code`, `fundingTime` and `intervalSeconds` as numbers, ccxt's example
 * as strings: both are read.
 */
export const phemexHistory: VenueHistoryReader = {
  exchange: "phemex",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "forward-by-time",
    // 5,000 requests per 5 minutes per IP, every endpoint together.
    requestsPerSecond: 16.6,
    source: "https://phemex-docs.github.io/#query-funding-rate-history; https://phemex-docs.github.io/#ip-ratelimits",
  },
  async readPage(io, market, range, cursor) {
    const symbol = phemexFundingSymbol(market);
    const start = cursor === null ? range.since : cursorNumber("phemex", cursor);
    const url = withQuery("https://api.phemex.com/api-data/public/data/funding-rate-history", {
      symbol,
      start,
      end: range.until,
      limit: PAGE_SIZE,
    });
    const answer = await io.getJson(url);
    if (decimal("phemex", at("phemex", answer, ["code"]), "code") !== 0) {
      throw unexpectedAnswer("phemex", `code ${String(at("phemex", answer, ["code"]))}: ${String(at("phemex", answer, ["msg"]))}`);
    }
    const rows = rowsAt("phemex", answer, ["data", "rows"]);
    const settlements = rows.map((row) => {
      if (row.symbol !== symbol) throw unexpectedAnswer("phemex", `a row of ${String(row.symbol)} in the answer for ${symbol}`);
      return {
        time: epochMs("phemex", row.fundingTime, "fundingTime"),
        rate: decimal("phemex", row.fundingRate, "fundingRate"),
        intervalHours: row.intervalSeconds === undefined ? null : decimal("phemex", row.intervalSeconds, "intervalSeconds") / 3600,
      };
    });
    const last = Math.max(...settlements.map((settlement) => settlement.time));
    return { settlements, next: rows.length < PAGE_SIZE || last >= range.until ? null : String(last + 1) };
  },
};
