import { z } from "zod";
import type { Actor } from "@/lib/actor";
import type { AppServices } from "@/lib/app-services";
import { AppError } from "@/lib/errors";
import { accountFeeRates } from "@/lib/fees/account-fees";
import { assertAccountMinuteLimit } from "@/lib/ratelimit/account-minute-limit";
import { quoteListed } from "@/lib/quote/quote-opportunity";
import { quoteQuerySchema, type Quote } from "@/lib/quote/quote-schema";

/** The most rows one request quotes: a screener page. */
export const MAX_SCREENER_QUOTES = 100;

/**
 * Screener quote requests an account may make per minute. Each one reads up to MAX_SCREENER_QUOTES
 * pairs of order books from the venues, where a /v1 quote reads one pair a request: without a bound,
 * one browser asking for other rows every few seconds could spend the venues' request budgets (and
 * earn the service's address a ban) for every user. Thirty is a page change every two seconds.
 */
export const SCREENER_QUOTE_REQUESTS_PER_MINUTE = 30;

/** GET /api/opportunities/quotes: the ids on screen (comma-separated) and the quote's own query. */
export const screenerQuotesQuerySchema = quoteQuerySchema.extend({
  ids: z
    .string({ error: "Required: the opportunities on screen, comma-separated" })
    .transform((s) => [...new Set(s.split(",").filter((id) => id !== ""))])
    .pipe(z.array(z.string().max(100)).min(1, "Name at least one opportunity").max(MAX_SCREENER_QUOTES, `At most ${MAX_SCREENER_QUOTES} at once`)),
});
export type ScreenerQuotesQuery = z.infer<typeof screenerQuotesQuerySchema>;

/** One row's answer: its quote, or why there is none (a venue that did not answer, a leverage too high). */
export type ScreenerQuote = { id: string; quote: Quote } | { id: string; error: { code: string; message: string } };

/**
 * Quotes each opportunity on screen for the actor, all at once: books are cached per market and
 * shared by concurrent reads, so a page costs each venue one request per market it lists. One row
 * failing does not fail the others.
 */
export async function screenerQuotes(services: AppServices, actor: Actor, query: ScreenerQuotesQuery): Promise<ScreenerQuote[]> {
  await assertAccountMinuteLimit(services.limiter, "screener-quotes", actor.userId, SCREENER_QUOTE_REQUESTS_PER_MINUTE, "screener quote requests");
  const { ids, ...quoteQuery } = query;
  const market = services.market(actor.mode);
  // The set and the account's fees once for the page, not once a row.
  const [snapshot, accountFees] = await Promise.all([market.opportunities(), services.db().then((db) => accountFeeRates(db, actor.userId))]);
  return Promise.all(
    ids.map(async (id): Promise<ScreenerQuote> => {
      try {
        const opportunity = snapshot.byId(id);
        if (!opportunity) throw new AppError("NOT_FOUND", `No opportunity with id "${id}"`);
        return { id, quote: await quoteListed({ market, snapshot, accountFees }, opportunity, quoteQuery) };
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const detail = error.extra.details?.[0];
        return { id, error: { code: error.code, message: detail ? `${detail.field}: ${detail.message}` : error.message } };
      }
    }),
  );
}
