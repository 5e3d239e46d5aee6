import { fundingSettlementSchema } from "@/lib/market/model/funding-settlement";
import { baseAssetParam, exchangeParam } from "@/lib/market/model/market-params";
import { perPlan } from "@/lib/plans";
import { defineRoute } from "../route";
import { rangeList, rangePage } from "./range-page";

export const FUNDING_RATES_MAX_LIMIT = 1000;
export const FUNDING_RATES_MAX_RANGE_DAYS = 31;
const RANGE = { defaultDays: 7, maxDays: FUNDING_RATES_MAX_RANGE_DAYS };

// GET /v1/funding-rates — funding settlements of one asset on one venue, oldest first, paged.
export const listFundingRatesRoute = defineRoute({
  method: "GET",
  path: "/v1/funding-rates",
  operationId: "listFundingRates",
  summary: "List funding settlements of one asset on one exchange",
  description:
    "Funding settlements, oldest first. `from` and `to` bound the range (ISO 8601 date or date-time, inclusive); " +
    `without them the last 7 days, and a range may span at most ${FUNDING_RATES_MAX_RANGE_DAYS} days (a longer one is a 400 naming the field). ` +
    `\`from\` reaches back as far as the plan's history: ${perPlan("api", (plan) => `${plan.historyDays} days`)} (earlier: 403 naming the depth). ` +
    "`meta.from` and `meta.to` say which range was used.",
  tag: "Market data",
  permission: "opportunities:read",
  ...rangeList(RANGE, FUNDING_RATES_MAX_LIMIT, fundingSettlementSchema, {
    exchange: exchangeParam().describe("The exchange."),
    symbol: baseAssetParam().describe("Base asset, e.g. BTC (case-insensitive)."),
  }),
  example: { query: { exchange: "binance", symbol: "BTC" } },
  handler: async ({ actor, query, services }) =>
    rangePage(actor, services, query, RANGE, (market, { from, to }) =>
      market.settlementPage({ exchange: query.exchange, symbol: query.symbol, from, to, limit: query.limit, offset: query.offset }),
    ),
});
