import { legObservedMs, type Freshness } from "@/lib/market/model/leg-freshness";
import type { OpportunityLeg } from "@/lib/market/model/types";
import { formatGap, venueName } from "./price-spread-note";

/**
 * What a stale leg's badge says when pointed at (and to screen readers): how old the leg's data was
 * at the moment the view is of, and the threshold. Pure, so the server's render and the browser's
 * hydration agree. `asOf` is the set's `data_as_of`, which dates a leg of unknown time.
 */
export function staleLegNote(leg: Pick<OpportunityLeg, "exchange" | "observed_at">, asOf: string | null, f: Freshness): string {
  const threshold = `data older than ${formatGap(f.staleAfterMs)} is stale`;
  const observed = legObservedMs(leg, asOf);
  if (observed === -Infinity) return `${venueName(leg)}: when these numbers were observed is not known; ${threshold}.`;
  const when = `${new Date(observed).toISOString().slice(0, 19).replace("T", " ")} UTC`;
  const of = leg.observed_at === null ? `from before ${when}` : `observed ${when}`;
  return `${venueName(leg)} data ${formatGap(f.at - observed)} old (${of}); ${threshold}.`;
}
