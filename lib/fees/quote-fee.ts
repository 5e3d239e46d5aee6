import { DEFAULT_TAKER_FEE } from "@/lib/market/model/apr";
import type { Market, MarketRef } from "@/lib/market/market";
import type { OpportunitySnapshot } from "@/lib/market/opportunities/opportunity-query";

/** The taker fee a quote charges a leg's fills, and where it comes from. */
export interface QuoteFee {
  /** Decimal, e.g. 0.0005 = 0.05 %. */
  rate: number;
  /** `account`: the account's own fee on the venue; `venue_base_tier`: the venue's stated base-tier fee; `default`: none stated, DEFAULT_TAKER_FEE. */
  source: "account" | "venue_base_tier" | "default";
}

/** A venue's stated base-tier fee as a quote charges it: DEFAULT_TAKER_FEE where it states none. */
export function statedFee(stated: number | null): QuoteFee {
  return stated === null ? { rate: DEFAULT_TAKER_FEE, source: "default" } : { rate: stated, source: "venue_base_tier" };
}

// A venue's fee changes with a round at most, and every round publishes a new set: each set's fees
// are read once (a query per leg for live keys, a generated market for test keys), not per quote.
const feesBySet = new WeakMap<OpportunitySnapshot, Map<string, Promise<QuoteFee>>>();

/**
 * The one place a quote's fee per leg is decided: the venue's base-tier taker fee as the market
 * stated it for the served set, else DEFAULT_TAKER_FEE (the highest base tier among the venues, so
 * a missing fee can only make a quote look worse). The account's own fee on the venue
 * (`accountFee`, lib/fees/account-fees.ts) comes first: a desk past the base tier pays less, and one
 * on a venue's worse schedule more.
 */
export function quoteTakerFee(
  market: Market,
  snapshot: OpportunitySnapshot,
  leg: MarketRef,
  at: Date,
  accountFee?: number,
): Promise<QuoteFee> {
  if (accountFee !== undefined) return Promise.resolve({ rate: accountFee, source: "account" });
  let fees = feesBySet.get(snapshot);
  if (!fees) feesBySet.set(snapshot, (fees = new Map()));
  const key = `${leg.exchange}\u0000${leg.market}`;
  let fee = fees.get(key);
  if (!fee) {
    fee = market.takerFee(leg, at).then(statedFee);
    fees.set(key, fee);
    // A failed read is not kept: the next quote asks again.
    fee.catch(() => fees.delete(key));
  }
  return fee;
}
