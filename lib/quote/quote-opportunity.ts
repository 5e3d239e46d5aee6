import type { Actor } from "@/lib/actor";
import type { AppServices } from "@/lib/app-services";
import { AppError, fieldError } from "@/lib/errors";
import type { Market } from "@/lib/market/market";
import type { OpportunitySnapshot } from "@/lib/market/opportunities/opportunity-query";
import type { Opportunity, OpportunityLeg } from "@/lib/market/model/types";
import type { FundingSchedule } from "./funding-horizon";
import { priceQuote } from "./price-quote";
import { quoteTakerFee } from "@/lib/fees/quote-fee";
import { accountFeeRates } from "@/lib/fees/account-fees";
import type { Quote, QuoteFigures, QuoteLeg, QuoteQuery } from "./quote-schema";

// A quote of one listed opportunity at a size, shared by GET /v1/opportunities/{id}/quote and, in
// time, the screener's Size column and the simulations that take a notional. No HTTP here.

export function fundingScheduleOf(leg: OpportunityLeg): FundingSchedule {
  return {
    rate: leg.funding_rate,
    predictedRate: leg.predicted_funding_rate,
    intervalHours: leg.funding_interval_hours,
    nextFundingAt: leg.next_funding_at === null ? null : Date.parse(leg.next_funding_at),
  };
}

/**
 * Prices the opportunity `id` of the actor's market at the query's size, holding period and
 * leverage (lib/quote/price-quote.ts says how), from both legs' order books and margin tiers read
 * now. An unknown id is 404; a venue that does not send its book in time is 503 VENUE_UNAVAILABLE
 * (lib/market/books); a leverage above what a leg's venue allows at the filled size is a 400 on
 * `leverage` naming the highest the pair allows. A book too thin for the size is not an error:
 * the quote is of what could be filled, and says so.
 */
export async function quoteOpportunity(
  services: AppServices,
  actor: Actor,
  id: string,
  query: QuoteQuery,
): Promise<{ quote: Quote; snapshot: OpportunitySnapshot }> {
  const market = services.market(actor.mode);
  // The account's own fees are read beside the set: one query, not one per leg.
  const [snapshot, accountFees] = await Promise.all([market.opportunities(), services.db().then((db) => accountFeeRates(db, actor.userId))]);
  const opportunity = snapshot.byId(id);
  if (!opportunity) throw new AppError("NOT_FOUND", `No opportunity with id "${id}"`);
  return { quote: await quoteListed({ market, snapshot, accountFees }, opportunity, query), snapshot };
}

/** The quote of one listed opportunity of the context's set. */
export async function quoteListed(context: QuoteContext, opportunity: Opportunity, query: QuoteQuery): Promise<Quote> {
  const { figures, at } = await quoteLegs(context, opportunity.long, opportunity.short, query);
  return { opportunity_id: opportunity.id, symbol: opportunity.symbol, quoted_at: at.toISOString(), ...figures };
}

/** What pricing two legs reads beside their books: the actor's market and set, and the account's own fees by exchange. */
export interface QuoteContext {
  market: Market;
  snapshot: OpportunitySnapshot;
  accountFees: ReadonlyMap<string, number>;
}

/**
 * Prices a long and a short leg of the set at the query's size (quoteOpportunity's figures): both
 * books read now, the margin tiers and fees beside them. The simulations that take order-book
 * costs call this with their own legs, which need not be one listed opportunity.
 */
export async function quoteLegs(
  { market, snapshot, accountFees }: QuoteContext,
  long: OpportunityLeg,
  short: OpportunityLeg,
  query: QuoteQuery,
): Promise<{ figures: QuoteFigures; at: Date }> {
  const at = market.quoteTime(new Date());
  const legs = [long, short] as const;
  // Both books at once, and the tiers and fees beside them: the slowest venue sets the wait.
  const [books, margins, fees] = await Promise.all([
    Promise.all(legs.map((leg) => market.orderBook(leg))),
    Promise.all(legs.map((leg) => market.marginTable(leg))),
    Promise.all(legs.map((leg) => quoteTakerFee(market, snapshot, leg, at, accountFees.get(leg.exchange)))),
  ]);
  const input = (i: 0 | 1, side: "long" | "short") => ({
    side,
    exchange: legs[i].exchange,
    market: legs[i].market,
    book: books[i]!,
    fee: fees[i]!,
    funding: fundingScheduleOf(legs[i]),
    margin: margins[i]!,
  });
  const figures = priceQuote({
    notionalUsd: query.notional,
    holdHours: query.hold_hours,
    leverage: query.leverage,
    at: at.getTime(),
    long: input(0, "long"),
    short: input(1, "short"),
  });
  assertLeverageAllowed([figures.long, figures.short], query.leverage);
  return { figures, at };
}

/** A 400 on `leverage` naming the highest the legs allow at the filled size, when the query asks for more. */
export function assertLeverageAllowed(legs: readonly QuoteLeg[], leverage: number): void {
  const limits = legs.flatMap((leg) => {
    const max = leg.liquidation.max_leverage;
    return max === null ? [] : [{ max, leg }];
  });
  const strictest = limits.sort((a, b) => a.max - b.max)[0];
  if (strictest && leverage > strictest.max) {
    throw fieldError(
      "leverage",
      `Must be at most ${strictest.max} for this pair at this size: ${strictest.leg.exchange} allows ${strictest.max}x on ${strictest.leg.market}`,
    );
  }
}
