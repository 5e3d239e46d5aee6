import { describe, expect, it } from "vitest";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import { VENUE_ADAPTERS } from "./connectors/venue-adapters";
import { VENUE_REPLAYS } from "@/tests/fixtures/venues/venue-replay-table";
import { VENUE_IDS } from "../model/types";
import { registryTakerFee, VENUE_REGISTRY } from "./venue-registry";

// The registry is what the sandbox builds test keys' venues from; each entry must describe what the
// venue's live connector actually produces, here from its replayed answers.
describe("the venue registry", () => {
  it("lists exactly the venues with a live connector", () => {
    expect(Object.keys(VENUE_REGISTRY)).toEqual([...VENUE_IDS]);
    expect(Object.keys(VENUE_ADAPTERS).sort()).toEqual([...VENUE_IDS].sort());
  });

  it.each(VENUE_IDS)("describes %s as its live connector reads it (intervals, their source, bounds, fee)", { timeout: 30_000 }, async (venue) => {
    const { result } = await replayVenue(venue, VENUE_REPLAYS[venue](), { now: () => Date.UTC(2026, 5, 12, 4, 35) });
    const snapshots = [...snapshotsBySymbol(result).values()];
    const live = VENUE_REGISTRY[venue];
    expect(snapshots.length).toBeGreaterThan(0);
    for (const s of snapshots) {
      if (s.fundingIntervalHours !== null) expect(live.intervalSources, s.market).toContain(s.fundingIntervalSource);
      if (!live.statesRateBounds) expect([s.rateCap ?? null, s.rateFloor ?? null], s.market).toEqual([null, null]);
    }
    const fees = new Set(snapshots.map((s) => s.takerFee));
    if (live.takerFeePerMarket) {
      // A cost read per market: each one a fee, and one of them the registry's representative.
      for (const s of snapshots) expect(s.takerFee, s.market).toBeGreaterThanOrEqual(0);
      expect([...fees].map((fee) => Number(fee?.toFixed(6)))).toContain(registryTakerFee(venue));
      return;
    }
    // A published schedule applies to every market; without one, the connector's own value.
    expect([...fees]).toEqual([registryTakerFee(venue)]);
  });
});
