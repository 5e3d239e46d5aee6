// The events bench:push publishes: a round's change events derived by the service's own diff
// (opportunityEvents) between two generated sets, so each frame has a real event's size and shape.
import { opportunityEvents } from "@/lib/events/derive-events";
import type { NewEvent } from "@/lib/events/event-data";
import { columnsOf } from "@/lib/market/opportunities/opportunity-columns";
import { benchOpportunities } from "./market-data";

const THRESHOLD = 5;

/**
 * About `count` opportunity events of one round: the new set opens a tenth of them, closes a tenth
 * (items only the previous set had), and every other event is an `opportunity.updated` (the
 * previous set's net APR moved by twice the threshold). Deterministic.
 */
export function roundEvents(count: number, observedAt = Date.UTC(2026, 10, 21, 15, 59)): NewEvent[] {
  const turnover = Math.max(1, Math.round(count / 10));
  const updated = Math.max(0, count - 2 * turnover);
  // `updated` items every `stride`-th of the ones both sets share.
  const stride = 4;
  const shared = Math.max(updated * stride, 1);
  const items = benchOpportunities(turnover + shared + turnover, observedAt);
  const current = items.slice(0, turnover + shared);
  const previous = items
    .slice(turnover)
    .map((item, i) => (i < shared && i % stride === 0 && i / stride < updated ? { ...item, net_apr: item.net_apr - 2 * THRESHOLD } : item));
  return opportunityEvents(columnsOf(previous), columnsOf(current), { threshold: THRESHOLD, freshness: { at: observedAt, staleAfterMs: 180_000 }, asOf: new Date(observedAt).toISOString() });
}

/** One venue event (what webhooks are subscribed to in the benchmark). */
export function venueEvent(type: "venue.stale" | "venue.recovered", at: number): NewEvent {
  const data = {
    exchange: "binance",
    status: type === "venue.stale" ? ("stale" as const) : ("ok" as const),
    last_success_at: new Date(at).toISOString(),
    error: type === "venue.stale" ? "bench:push: a published venue event" : null,
  };
  return type === "venue.stale" ? { type, data } : { type, data };
}
