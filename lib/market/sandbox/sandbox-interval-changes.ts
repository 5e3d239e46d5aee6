import type { FundingIntervalChange } from "../model/funding-interval-change";
import type { IntervalChangeWindow } from "../market";
import { SANDBOX_HISTORY_HOURS } from "./sandbox-funding-history";
import { intervalHoursAt, SANDBOX_UNIVERSE } from "./sandbox-universe";

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

const SHIFTING = SANDBOX_UNIVERSE.flatMap((asset) => asset.listings.filter((l) => l.intervalByDay).map((listing) => ({ base: asset.base, listing })));

/**
 * The sandbox's interval changes in a window, as live rounds would have stored them: the
 * interval-shift fixture's (lib/market/sandbox/edge-cases.ts), one at each UTC midnight of the
 * sandbox's 7-day history before `now`, seen by the round a minute later. Oldest first, then by
 * exchange and market, as the live ones.
 */
export function sandboxIntervalChanges(now: Date, w: IntervalChangeWindow): { items: FundingIntervalChange[]; total: number } {
  const earliest = Math.max(w.from.getTime(), now.getTime() - SANDBOX_HISTORY_HOURS * HOUR_MS);
  const latest = Math.min(w.to.getTime(), now.getTime() - MINUTE_MS);
  const items: FundingIntervalChange[] = [];
  for (let day = Math.ceil(earliest / DAY_MS) * DAY_MS; day <= latest; day += DAY_MS) {
    for (const { base, listing } of SHIFTING) {
      if ((w.exchange !== undefined && w.exchange !== listing.venue) || (w.symbol !== undefined && w.symbol !== base)) continue;
      items.push({
        exchange: listing.venue,
        market: listing.market,
        symbol: base,
        effective_at: new Date(day).toISOString(),
        from_hours: intervalHoursAt(listing, day - 1),
        to_hours: intervalHoursAt(listing, day),
        source: listing.intervalSource,
        detected_at: new Date(day + MINUTE_MS).toISOString(),
      });
    }
  }
  return { items: items.slice(w.offset, w.offset + w.limit), total: items.length };
}
