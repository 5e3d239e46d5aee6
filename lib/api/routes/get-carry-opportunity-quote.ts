import { z } from "zod";
import { BOOK_DEADLINE_MS, BOOK_FRESH_MS } from "@/lib/market/books/live-market-depth";
import { BOOK_LEVELS } from "@/lib/market/books/market-depth";
import { carryOpportunityById } from "@/lib/market/carry/carry-query";
import { carryQuoteSchema } from "@/lib/quote/carry-quote-schema";
import { quoteCarryOpportunity } from "@/lib/quote/quote-carry-opportunity";
import { quoteQuerySchema } from "@/lib/quote/quote-schema";
import { marketMetaSchema } from "../openapi/shared-schemas";
import { defineRoute } from "../route";

// GET /v1/carry-opportunities/:id/quote — what entering, holding and leaving one carry trade at a size would earn, from both books.
export const getCarryOpportunityQuoteRoute = defineRoute({
  method: "GET",
  path: "/v1/carry-opportunities/:id/quote",
  operationId: "getCarryOpportunityQuote",
  summary: "Price a carry opportunity at a size: both books, borrow cost and the perpetual's liquidation",
  description:
    `Reads the spot market's and the perpetual's order books (${BOOK_LEVELS} levels a side, each reused for ${BOOK_FRESH_MS / 1000} s) and walks ` +
    "them for `notional` USD a leg, as GET /v1/opportunities/{id}/quote does for perp pairs: `spot_perp` buys spot and sells the perpetual " +
    "at entry, `perp_spot` sells borrowed spot and buys the perpetual. Per leg: the fills, slippage and the taker fee (the spot venue's " +
    "base-tier spot fee as the carry opportunity states it, the perpetual's stated fee); the perpetual's funding over `hold_hours` and its " +
    "liquidation price at `leverage` (spot held or sold outright has none: `spot_not_liquidated`); for `perp_spot` the borrow interest " +
    "over `hold_hours` at the listed `borrow_apr` (simple), the size capped by the venue's `borrowable` (`borrow_capped`). A book too " +
    "thin for `notional` sizes both legs down (`thin_book`), never an error. An exchange that does not send a book within " +
    `${BOOK_DEADLINE_MS / 1000} s answers 503 VENUE_UNAVAILABLE naming it; a \`leverage\` above what the perpetual's venue allows at the ` +
    "filled size is a 400 naming the most it allows. An id that is not a carry id is a 400 on `id`; one not in " +
    "the current carry set a 404. Test keys get the sandbox's generated books.",
  tag: "Opportunities",
  permission: "opportunities:read",
  params: z.object({ id: z.string().describe("The carry opportunity's `id` as listed, e.g. BTC-spot_perp-binance-bybit.") }),
  query: quoteQuerySchema,
  data: carryQuoteSchema,
  meta: marketMetaSchema,
  errors: ["VENUE_UNAVAILABLE"],
  example: { params: { id: "BTC-spot_perp-binance-bybit" }, query: { notional: "50000", hold_hours: "72", leverage: "3" } },
  handler: async ({ actor, params, query, services }) => {
    const market = services.market(actor.mode);
    const snapshot = await market.carryOpportunities();
    const item = carryOpportunityById(snapshot, params.id);
    const { figures, at } = await quoteCarryOpportunity(market, item, query, new Date());
    return {
      data: { opportunity_id: item.id, symbol: item.symbol, quoted_at: at.toISOString(), ...figures },
      meta: { data_as_of: snapshot.asOf, sample: snapshot.sample, mode: actor.mode },
    };
  },
});
