import { fundingIntervalChangeSchema } from "@/lib/market/model/funding-interval-change";
import { baseAssetParam, exchangeParam } from "@/lib/market/model/market-params";
import { perPlan } from "@/lib/plans";
import { defineRoute } from "../route";
import { rangeList, rangePage } from "./range-page";

export const FUNDING_INTERVALS_MAX_LIMIT = 1000;
const RANGE = { defaultDays: 30, maxDays: 366 };

// GET /v1/funding-intervals — when markets' funding intervals changed, oldest first, paged.
export const listFundingIntervalsRoute = defineRoute({
  method: "GET",
  path: "/v1/funding-intervals",
  operationId: "listFundingIntervalChanges",
  summary: "List changes of markets' funding intervals",
  description:
    "Every change of a market's funding interval the ingestion rounds saw (each round compares every market with its previous " +
    "observation), oldest first by `effective_at`. Venues shorten an interval when a rate sits at its cap and lengthen it again " +
    "when calm, per coin. `exchange` and `symbol` narrow the list; `from` and `to` bound `effective_at` (ISO 8601 date or " +
    `date-time, inclusive): without them the last ${RANGE.defaultDays} days, and a range may span at most ${RANGE.maxDays} days. ` +
    `\`from\` reaches back as far as the plan's history: ${perPlan("api", (plan) => `${plan.historyDays} days`)} (earlier: 403 naming the depth). ` +
    "Funding settlements (GET /v1/funding-rates) each carry the interval in force when they settled.",
  tag: "Market data",
  permission: "opportunities:read",
  ...rangeList(RANGE, FUNDING_INTERVALS_MAX_LIMIT, fundingIntervalChangeSchema, {
    exchange: exchangeParam().optional().describe("Only this exchange's markets."),
    symbol: baseAssetParam()
      .optional()
      .describe("Only this base asset's markets, e.g. BTC (case-insensitive)."),
  }),
  example: { query: { exchange: "binance" } },
  handler: async ({ actor, query, services }) =>
    rangePage(actor, services, query, RANGE, (market, { from, to }) =>
      market.intervalChanges({ exchange: query.exchange, symbol: query.symbol, from, to, limit: query.limit, offset: query.offset }),
    ),
});
