import { venueFreshness } from "@/lib/market/model/venue-status";
import { SANDBOX_STALE_AFTER_MS } from "@/lib/market/sandbox/sandbox-market";
import { sandboxIntervalChanges } from "@/lib/market/sandbox/sandbox-interval-changes";
import { sandboxItems } from "@/lib/market/sandbox/sandbox-snapshot";
import { columnsOf } from "@/lib/market/opportunities/opportunity-columns";
import { generateSandboxMarket } from "@/lib/market/sandbox/generate-sandbox-market";
import { DEFAULT_NET_APR_THRESHOLD, opportunityEvents, venueHealthEvents, type VenueState } from "./derive-events";
import type { NewEvent } from "./event-data";

const MINUTE_MS = 60_000;

/** The start of the sandbox tick containing `at` (ticks of `tickMs`, from the epoch). */
export function sandboxTickStart(at: number, tickMs: number): Date {
  return new Date(Math.floor(at / tickMs) * tickMs);
}

function venueStates(at: Date): Map<string, VenueState> {
  const market = generateSandboxMarket(at);
  return new Map(
    market.venues.map((v) => {
      const lastSuccessAt = new Date(v.lastSuccessAt);
      const { status } = venueFreshness({ status: v.status, lastSuccessAt }, SANDBOX_STALE_AFTER_MS, at.getTime());
      return [v.id, { status, lastSuccessAt, error: status === "stale" ? "sandbox: this venue is always stale, to test against" : null }];
    }),
  );
}

/**
 * The test-mode events of the sandbox tick starting at `tick`: the sandbox at the previous tick's
 * start against the sandbox at this one's, diffed as live rounds are (venue health, the interval
 * changes seen in between, then opportunities moved by `threshold`). A pure function of the tick
 * (and the threshold): the same tick always gives the same events, whichever process writes them and when.
 */
export function sandboxTickEvents(tick: Date, tickMs: number, threshold = DEFAULT_NET_APR_THRESHOLD): NewEvent[] {
  const previous = new Date(tick.getTime() - tickMs);
  const before = sandboxItems(previous);
  const now = sandboxItems(tick);
  const after = venueStates(tick);
  const venues = venueHealthEvents(
    venueStates(previous),
    [...after].map(([exchange, state]) => ({ exchange, ...state })),
  );
  // The sandbox's interval changes are seen a minute after they take effect (sandbox-interval-changes.ts).
  const changes = sandboxIntervalChanges(tick, {
    from: new Date(previous.getTime() - MINUTE_MS + 1),
    to: new Date(tick.getTime() - MINUTE_MS),
    limit: 10_000,
    offset: 0,
  }).items.map((change): NewEvent => ({ type: "funding_interval.changed", data: { change } }));
  const opportunities = opportunityEvents(columnsOf(before.items), columnsOf(now.items), {
    threshold,
    freshness: { at: tick.getTime(), staleAfterMs: SANDBOX_STALE_AFTER_MS },
    asOf: now.asOf,
  });
  return [...venues, ...changes, ...opportunities];
}
