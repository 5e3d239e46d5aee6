import { z } from "zod";
import { BOOK_DEADLINE_MS, BOOK_FRESH_MS } from "@/lib/market/books/live-market-depth";
import { BOOK_LEVELS } from "@/lib/market/books/market-depth";
import { quoteOpportunity } from "@/lib/quote/quote-opportunity";
import { quoteQuerySchema, quoteSchema } from "@/lib/quote/quote-schema";
import { marketMetaSchema } from "../openapi/shared-schemas";
import { defineRoute } from "../route";

// GET /v1/opportunities/:id/quote — what entering, holding and leaving one opportunity at a size would earn, from both legs' order books.
export const getOpportunityQuoteRoute = defineRoute({
  method: "GET",
  path: "/v1/opportunities/:id/quote",
  operationId: "getOpportunityQuote",
  summary: "Price an opportunity at a size: costs, funding, net return and liquidation",
  description:
    `Reads both legs' order books (${BOOK_LEVELS} levels a side, each market's reused for ${BOOK_FRESH_MS / 1000} s) and walks them for \`notional\` USD a leg: ` +
    "entry buys the long leg from its asks and sells the short leg into its bids, exit does the reverse against the same books. Per leg it " +
    "answers each fill's average price and slippage against the mid (half the spread included), the taker fee at the venue's base tier, the " +
    "book's timestamp, the funding expected over `hold_hours` (the next settlement at the current rate, later ones at the venue's forecast " +
    "where it publishes one, each leg at its own interval), the largest notional whose entry and exit stay within 10 bps, and the liquidation " +
    "price at `leverage` from the venue's maintenance-margin tiers (null with a reason where the venue does not publish them). For the pair: " +
    "entry and exit cost in USD and bps, expected funding, net USD and net APR at that size, and the hours until funding has paid the costs.\n\n" +
    "A book too thin for `notional` is not an error: both legs are sized down to what every fill can take, `filled_notional_usd` says how " +
    "much, `thin_book` is true, and every figure is of that size. An exchange that does not send a book within " +
    `${BOOK_DEADLINE_MS / 1000} s answers 503 VENUE_UNAVAILABLE naming it; a book older than a few seconds is never used instead. ` +
    "While the service serves its offline sample, live keys are quoted from real recorded books of its BTC markets (of other days: see " +
    "`depth_timestamp`); its other markets are 503. Test keys get the sandbox's generated books, the same all minute.",
  tag: "Opportunities",
  permission: "opportunities:read",
  params: z.object({ id: z.string().describe("The opportunity's `id` as listed, e.g. BTC-binance-bybit.") }),
  query: quoteQuerySchema,
  data: quoteSchema,
  meta: marketMetaSchema,
  errors: ["VENUE_UNAVAILABLE"],
  example: { params: { id: "BTC-binance-bybit" }, query: { notional: "50000", hold_hours: "72", leverage: "3" } },
  handler: async ({ actor, params, query, services }) => {
    const { quote, snapshot } = await quoteOpportunity(services, actor, params.id, query);
    return { data: quote, meta: { data_as_of: snapshot.asOf, sample: snapshot.sample, mode: actor.mode } };
  },
});
