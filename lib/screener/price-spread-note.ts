import type { Opportunity, OpportunityLeg } from "@/lib/market/model/types";
import { VENUE_NAMES } from "@/lib/market/venues/venue-names";

/**
 * Why the screener shows "—" for an opportunity's price spread, in words (its cell's tooltip);
 * `null` when the spread is given. Pure, so the server's render and the browser's hydration agree.
 */
export function priceSpreadNote(o: Pick<Opportunity, "long" | "short" | "price_spread_unavailable_reason">): string | null {
  switch (o.price_spread_unavailable_reason) {
    case null:
      return null;
    case "legs_observed_apart": {
      const apart = Math.abs(Date.parse(o.long.observed_at ?? "") - Date.parse(o.short.observed_at ?? ""));
      return (
        `Legs observed ${formatGap(apart)} apart (${venueName(o.long)} ${utcSeconds(o.long.observed_at)}, ` +
        `${venueName(o.short)} ${utcSeconds(o.short.observed_at)}); a spread would compare different moments.`
      );
    }
    case "price_missing": {
      const unpriced = [o.long, o.short].filter((leg) => leg.mark_price === null).map(venueName);
      return `No mark price from ${unpriced.join(" or ") || "a leg"}, so there is no spread to show.`;
    }
    case "observation_time_unknown":
      return "When a leg was observed is not known, so a spread could compare different moments.";
  }
}

/** A venue's display name ("OKX"), or its id for a venue without one. */
export function venueName(leg: Pick<OpportunityLeg, "exchange">): string {
  return (VENUE_NAMES as Record<string, string | undefined>)[leg.exchange] ?? leg.exchange;
}

/** A time gap in the largest unit that keeps it readable: "45 s", "12 min", "5 h", "467 days". */
export function formatGap(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}

// To the second: two legs a minute apart would otherwise read as the same minute.
function utcSeconds(iso: string | null): string {
  if (iso === null) return "at an unknown time";
  return `${new Date(iso).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}
