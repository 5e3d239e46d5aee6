import Link from "next/link";
import { DELAYED_PLAN as DELAYED } from "@/lib/plans";

/** An id that is not in the set the visitor sees: gone since (pairs come and go), delayed, or mistyped. */
export default function OpportunityNotFound() {
  return (
    <div>
      <h1>Opportunity not found</h1>
      <p>
        No opportunity with this id is in the set you see. Pairs come and go as venues list markets and rates move; on the {DELAYED.name}{" "}
        plan, and signed out, the set is the one of {DELAYED.dataDelayMinutes} minutes ago, so a pair listed since then is not in it yet. Ids read
        like <code>BTC-binance-bybit</code>: the asset, then the long and the short leg&apos;s venue.
      </p>
      <p>
        <Link href="/opportunities">Back to the screener</Link>
      </p>
    </div>
  );
}
