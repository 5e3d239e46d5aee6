import { z } from "zod";
import { fundingSettlementSchema } from "@/lib/market/funding-settlement";
import { VENUE_IDS } from "@/lib/market/types";
import { pageParams, queryError } from "@/lib/query-params";
import { dateOrDateTimeText } from "@/lib/validation";
import { marketMetaSchema, pageSchema } from "../openapi/shared-schemas";
import { defineRoute } from "../route";

export const FUNDING_RATES_MAX_LIMIT = 1000;
const DAY_MS = 86_400_000;
const DEFAULT_RANGE_MS = 7 * DAY_MS;
export const FUNDING_RATES_MAX_RANGE_DAYS = 31;

// The year 2000 or later (lib/validation.ts), stated in the document as each format's pattern. The
// range's own bounds (not reversed, at most FUNDING_RATES_MAX_RANGE_DAYS) relate two parameters,
// which JSON Schema cannot say, so the parameters' descriptions say them.
const instant = dateOrDateTimeText("Must be an ISO 8601 date or date-time, e.g. 2026-11-21T00:00:00Z").transform((text) => new Date(text));

export const fundingRatesQuery = z.strictObject({
  exchange: z.enum(VENUE_IDS, `Must be one of: ${VENUE_IDS.join(", ")}`).describe("The exchange."),
  symbol: z
    .string()
    .regex(/^[A-Za-z0-9]{1,20}$/, "Must be a base asset such as BTC")
    .transform((s) => s.toUpperCase())
    .describe("Base asset, e.g. BTC (case-insensitive)."),
  from: instant
    .optional()
    .describe(
      `Start of the range, inclusive: not after \`to\`, at most ${FUNDING_RATES_MAX_RANGE_DAYS} days before it, and not in the ` +
        "future when `to` is not given; default: 7 days before `to`.",
    ),
  to: instant
    .optional()
    .describe(
      `End of the range, inclusive: not before \`from\` and at most ${FUNDING_RATES_MAX_RANGE_DAYS} days after it; ` +
        "default: now, or 7 days after `from` if that is earlier.",
    ),
  ...pageParams(FUNDING_RATES_MAX_LIMIT, 100),
});

// GET /v1/funding-rates — funding settlements of one asset on one venue, oldest first, paged.
export const listFundingRatesRoute = defineRoute({
  method: "GET",
  path: "/v1/funding-rates",
  operationId: "listFundingRates",
  summary: "List funding settlements of one asset on one exchange",
  description:
    "Funding settlements, oldest first. `from` and `to` bound the range (ISO 8601 date or date-time, inclusive); " +
    `without them the last 7 days, and a range may span at most ${FUNDING_RATES_MAX_RANGE_DAYS} days (a longer one is a 400 naming the field). ` +
    "`meta.from` and `meta.to` say which range was used.",
  tag: "Market data",
  permission: "opportunities:read",
  query: fundingRatesQuery,
  data: pageSchema(fundingSettlementSchema, fundingRatesQuery),
  meta: marketMetaSchema.extend({
    from: z.iso.datetime().describe("ISO 8601 UTC start of the range used."),
    to: z.iso.datetime().describe(`ISO 8601 UTC end of the range used, at most ${FUNDING_RATES_MAX_RANGE_DAYS} days after \`from\`.`),
  }),
  example: { query: { exchange: "binance", symbol: "BTC" } },
  handler: async ({ key, query, services }) => {
    const now = new Date();
    // Without a `to`, the range would end now, before this `from`: the mistake is the `from`.
    if (query.from && !query.to && query.from > now) throw rangeError("from", "Must not be in the future");
    const to = query.to ?? (query.from ? new Date(Math.min(now.getTime(), query.from.getTime() + DEFAULT_RANGE_MS)) : now);
    const from = query.from ?? new Date(to.getTime() - DEFAULT_RANGE_MS);
    if (to < from) throw rangeError("to", "Must not be before from");
    if (to.getTime() - from.getTime() > FUNDING_RATES_MAX_RANGE_DAYS * DAY_MS) {
      throw rangeError(query.to ? "to" : "from", `The range may span at most ${FUNDING_RATES_MAX_RANGE_DAYS} days`);
    }
    const market = services.market(key.mode);
    const [page, snapshot] = await Promise.all([
      market.settlementPage({ exchange: query.exchange, symbol: query.symbol, from, to, limit: query.limit, offset: query.offset }),
      market.opportunities(),
    ]);
    return {
      data: {
        items: page.items,
        total: page.total,
        limit: query.limit,
        offset: query.offset,
        has_more: query.offset + page.items.length < page.total,
      },
      meta: { data_as_of: snapshot.asOf, sample: snapshot.sample, mode: key.mode, from: from.toISOString(), to: to.toISOString() },
    };
  },
});

function rangeError(field: string, message: string) {
  return queryError([{ field, message }]);
}
