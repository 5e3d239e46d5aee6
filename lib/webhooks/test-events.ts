import type { NewEvent } from "@/lib/events/event-data";
import { intervalChangeEvents, venueHealthEvents } from "@/lib/events/derive-events";
import type { EventType } from "@/lib/events/event-types";
import { servedAt } from "@/lib/market/model/leg-freshness";
import { carryEvents } from "@/lib/events/carry-events";
import { carryItemAt, emptyCarryColumns, pickCarryColumns } from "@/lib/market/carry/carry-columns";
import { sandboxCarrySnapshot } from "@/lib/market/sandbox/sandbox-carry";
import { SANDBOX_MIN_ASSETS } from "@/lib/market/sandbox/generate-sandbox-market";
import { sandboxOpportunities } from "@/lib/market/sandbox/sandbox-opportunities";

/** The type a test event has when the caller names none: the one most receivers handle first. */
export const DEFAULT_TEST_EVENT_TYPE: EventType = "opportunity.opened";

/**
 * A test event's `data`: the shape real events of `type` carry, built by the same functions that
 * build theirs (the derivations of lib/events/derive-events.ts, the served opportunity) from a
 * small sandbox market at `now` (cached per minute), so a receiver's parser meets exactly what
 * production sends. Pure.
 */
export function testEventData(type: EventType, now: Date): NewEvent["data"] {
  const opportunity = sandboxOpportunities(now, { assets: SANDBOX_MIN_ASSETS }).opportunities[0]!;
  // Served as of `now`, with no leg stale: a test event shows the shape, not a stale sample.
  const served = servedAt(opportunity, null, { at: now.getTime(), staleAfterMs: Infinity });
  const lastSuccess = new Date(now.getTime() - 60_000);
  switch (type) {
    case "opportunity.opened":
      return { opportunity: served };
    case "opportunity.updated":
      return { opportunity: served, previous_net_apr: Math.round((opportunity.net_apr - 5) * 1e6) / 1e6 };
    case "opportunity.closed":
      return {
        id: opportunity.id,
        symbol: opportunity.symbol,
        long: { exchange: opportunity.long.exchange, market: opportunity.long.market },
        short: { exchange: opportunity.short.exchange, market: opportunity.short.market },
        last_apr: opportunity.apr,
        last_net_apr: opportunity.net_apr,
      };
    case "carry_opportunity.opened":
    case "carry_opportunity.updated":
    case "carry_opportunity.closed": {
      const { columns } = sandboxCarrySnapshot(now);
      const carry = carryItemAt(columns, 0);
      if (type === "carry_opportunity.opened") return { opportunity: carry };
      if (type === "carry_opportunity.updated") return { opportunity: carry, previous_net_apr: Math.round((carry.net_apr - 5) * 1e6) / 1e6 };
      return carryEvents(pickCarryColumns(columns, [0]), emptyCarryColumns(), 0)[0]!.data;
    }
    case "funding_interval.changed": {
      const leg = opportunity.long;
      const [event] = intervalChangeEvents([
        { exchange: leg.exchange, market: leg.market, base: opportunity.symbol, effectiveAt: now, fromHours: 8, toHours: 4, source: "venue", detectedAt: now },
      ]);
      return event!.data;
    }
    case "venue.stale":
    case "venue.recovered": {
      const stale = type === "venue.stale";
      const exchange = opportunity.long.exchange;
      const before = new Map([[exchange, { status: stale ? ("ok" as const) : ("stale" as const), lastSuccessAt: lastSuccess, error: null }]]);
      const after = [{ exchange, status: stale ? ("stale" as const) : ("ok" as const), lastSuccessAt: lastSuccess, error: stale ? "timed out after 10000 ms" : null }];
      return venueHealthEvents(before, after)[0]!.data;
    }
    case "webhook_endpoint.disabled":
      return {
        endpoint: { id: "test_endpoint", url: "https://example.com/hooks/funding", description: null },
        reason: "failing",
        failing_since: new Date(now.getTime() - 3 * 86_400_000).toISOString(),
        disabled_at: now.toISOString(),
      };
    case "alert.triggered":
      return {
        rule: { id: "test_rule", name: "Test alert rule" },
        subject: opportunity.id,
        // An opportunity rule's alert, as the rounds write it: the crossing and the opportunity, no event.
        transition: "entered",
        opportunity: served,
        event: null,
      };
  }
}

