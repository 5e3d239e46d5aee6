import { binanceShapedHistory } from "./binance";

/** Aster `GET /fapi/v3/fundingRate`: Binance's endpoint, shape and paging (ascending, 1000 rows from `startTime`). */
export const asterHistory = binanceShapedHistory("aster", "https://fapi.asterdex.com/fapi/v3/fundingRate", {
  // Weight 1 of the 2400 REQUEST_WEIGHT a minute per IP.
  requestsPerSecond: 2400 / 60,
  source: "https://github.com/asterdex/api-docs/blob/master/V3(Recommended)/EN/aster-finance-futures-api-v3.md#get-funding-rate-history",
});
