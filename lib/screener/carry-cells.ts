import type { CarryOpportunity, CarryType } from "@/lib/market/carry/carry-opportunity";
import { priceSpreadNote } from "./price-spread-note";

/** Each side of the trade in words, as the carry tab's type column and filter name them. */
export const CARRY_TYPE_LABELS: Record<CarryType, string> = {
  spot_perp: "Held spot, short perpetual",
  perp_spot: "Borrowed spot, long perpetual",
};

/**
 * Why the carry tab shows "—" for an item's basis, in words (the cell's tooltip); `null` when the
 * basis is given. The spot leg stands where a perp pair's long leg would: the reasons are the
 * price spread's, so they are worded by the same note. Pure.
 */
export function basisNote(item: Pick<CarryOpportunity, "spot" | "perp" | "basis_unavailable_reason">): string | null {
  const spotAsLeg = { ...item.perp, exchange: item.spot.exchange, market: item.spot.market, mark_price: item.spot.price, observed_at: item.spot.observed_at };
  return priceSpreadNote({ long: spotAsLeg, short: item.perp, price_spread_unavailable_reason: item.basis_unavailable_reason });
}

