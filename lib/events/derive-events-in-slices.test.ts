import { describe, expect, it } from "vitest";
import { ScratchArrays } from "@/lib/market/opportunities/opportunity-columns";
import { rankOpportunities } from "@/lib/market/opportunities/rank-opportunities";
import { countingTurns } from "@/tests/support/event-loop-turns";
import { wideMarket } from "@/tests/support/market/wide-market";
import { opportunityEvents, opportunityEventsInSlices } from "./derive-events";

describe("opportunityEventsInSlices", () => {
  it("gives exactly the events of the whole diff between two round-sized sets, turning the event loop between its slices", async () => {
    const observedAt = Date.UTC(2026, 8, 27, 13, 30);
    const { snapshots, ...history } = wideMarket(600, observedAt);
    const previous = rankOpportunities(snapshots, history).columns;
    // The next round: rates moved on a third of the markets, an asset's markets gone (closed
    // pairs), a missing rate back (opened pairs).
    const next = snapshots
      .filter((s) => s.base !== "A7")
      .map((s, n) => (n % 3 === 0 ? { ...s, fundingRate: (s.fundingRate ?? 0.0002) * 4 + 0.0003, observedAt: observedAt + 60_000 } : s));
    const current = rankOpportunities(next, history).columns;
    const options = { threshold: 5, freshness: { at: observedAt + 90_000, staleAfterMs: 180_000 }, asOf: new Date(observedAt).toISOString() };

    const whole = opportunityEvents(previous, current, options);
    const types = new Set(whole.map((e) => e.type));
    expect(types).toEqual(new Set(["opportunity.opened", "opportunity.updated", "opportunity.closed"]));

    const { result: sliced, turns } = await countingTurns(() => opportunityEventsInSlices(previous, current, options, 0));

    expect(sliced).toEqual(whole);
    // Both sets' items, a slice for every 1,024 of each.
    expect(turns).toBeGreaterThan(50);
  });

  it("gives the same events diff after diff in working arrays kept between them as in new arrays", async () => {
    const observedAt = Date.UTC(2026, 8, 27, 13, 30);
    const { snapshots, ...history } = wideMarket(120, observedAt);
    // Three rounds: rates moving on a different third each time, an asset gone and back.
    const rounds = [0, 1, 2].map((round) =>
      rankOpportunities(
        snapshots
          .filter((s) => round !== 1 || s.base !== "A7")
          .map((s, n) => (n % 3 === round ? { ...s, fundingRate: (s.fundingRate ?? 0.0002) * (round + 3) + 0.0003 } : s)),
        history,
      ).columns,
    );
    const options = { threshold: 5, freshness: { at: observedAt + 90_000, staleAfterMs: 180_000 }, asOf: new Date(observedAt).toISOString() };
    const kept = new ScratchArrays();
    for (const [previous, current] of [[rounds[0]!, rounds[1]!], [rounds[1]!, rounds[2]!], [rounds[2]!, rounds[0]!]] as const) {
      const events = await opportunityEventsInSlices(previous, current, { ...options, take: kept.newRun() });
      expect(events.length).toBeGreaterThan(0);
      expect(events).toEqual(opportunityEvents(previous, current, options));
    }
  });
});
