import type { VenueHistoryReader } from "../history-types";
import { at, cursorNumber, decimal, epochMs, rowsAt, unexpectedAnswer, withQuery } from "./read-fields";

const PAGE_SIZE = 50;

/**
 * HTX USDT-margined `GET /linear-swap-api/v1/swap_historical_funding_rate`: pages by number
 * (`page_index`, 50 rows a page, `data.current_page`/`data.total_page`), newest first, so the walk
 * stops at the first page reaching back past `since`. `funding_time` is a string of ms; the
 * charged rate is `realized_rate` where the row has it, else `funding_rate`.
 */
export const htxHistory: VenueHistoryReader = {
  exchange: "htx",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "page-number",
    // No per-endpoint figure was confirmed for this endpoint; 10 a second is a conservative budget.
    requestsPerSecond: 10,
    source: "https://www.htx.com/en-us/opend/newApiPages/?id=8cb85f26-77b5-11ed-9966-0242ac110003",
  },
  async readPage(io, market, range, cursor) {
    const page = cursor === null ? 1 : cursorNumber("htx", cursor);
    const url = withQuery("https://api.hbdm.com/linear-swap-api/v1/swap_historical_funding_rate", {
      contract_code: market.venueMarketId,
      page_index: page,
      page_size: PAGE_SIZE,
    });
    const answer = await io.getJson(url);
    if (at("htx", answer, ["status"]) !== "ok") throw unexpectedAnswer("htx", `status ${String(at("htx", answer, ["status"]))}`);
    const rows = rowsAt("htx", answer, ["data", "data"]);
    const settlements = rows.map((row) => ({
      time: epochMs("htx", row.funding_time, "funding_time"),
      rate: decimal("htx", row.realized_rate ?? row.funding_rate, row.realized_rate === undefined ? "funding_rate" : "realized_rate"),
      intervalHours: null,
    }));
    const totalPages = decimal("htx", at("htx", answer, ["data", "total_page"]), "total_page");
    const oldest = Math.min(...settlements.map((settlement) => settlement.time));
    return { settlements, next: page < totalPages && rows.length > 0 && oldest > range.since ? String(page + 1) : null };
  },
};
