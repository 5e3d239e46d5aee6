import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenDatabase } from "@/lib/db/open-database";
import { LiveRoundEvents } from "@/lib/events/live-round-events";
import { runIngestionRound, type RoundStep } from "@/lib/market/ingest/run-ingestion-round";
import { VENUE_IDS, type VenueId } from "@/lib/market/model/types";
import { loadItems } from "@/lib/market/opportunities/store";
import { makeSnapshot, usdtPerp } from "@/tests/support/market/make-snapshot";
import { createTestDatabase } from "@/tests/support/test-database";
import { snapshotFetcher } from "./helpers/venue-fetchers";

// A round ranks its whole set and derives its events in slices (lib/time-slices.ts), giving the
// event loop a turn between them: requests, stream messages and micro-batches on the round's
// thread wait a slice, not the whole ranking.

const VENUES = VENUE_IDS.slice(0, 6);
/** 6 venues × 300 assets: 4,500 pairs, more than one slice of the ranking's candidates, pairs and rows. */
const ASSETS = Array.from({ length: 300 }, (_, i) => `A${i}`);

let database: OpenDatabase;
afterAll(async () => {
  await database?.close();
});
beforeAll(async () => {
  database = await createTestDatabase();
});

function markets(round: number) {
  return (venue: VenueId) => {
    const v = VENUES.indexOf(venue);
    return ASSETS.map((base, a) => makeSnapshot({ exchange: venue, ...usdtPerp(base), fundingRate: (((a * 7 + v * 3 + round) % 19) - 9) * 0.00002, observedAt: Date.now() - 1_000 }));
  };
}

describe("a round on the thread that serves", () => {
  it("gives the event loop turns while it ranks its whole set, and publishes the same set as ranked at once", async () => {
    const events = new LiveRoundEvents(5, 180_000);
    const round = (n: number, sliceMs: number, onStep?: (step: RoundStep) => void) =>
      runIngestionRound({
        db: database.db,
        fetcher: snapshotFetcher(markets(n)),
        venues: [...VENUES],
        timeoutMs: 5_000,
        retention: { rawDays: 7, hourlyDays: 730 },
        events,
        sliceMs,
        onStep,
      });
    // Ranked at once (a slice far longer than the ranking), as the baseline the events compare with.
    expect((await round(0, 60_000)).status).toBe("published");
    const atOnce = await loadItems(database.db);

    // A turn at every pause point: a callback queued as the ranking starts runs before it ends.
    let turned = false;
    let turnedWhileRanking: boolean | undefined;
    const outcome = await round(0, 0, (step) => {
      if (step === "history") setImmediate(() => (turned = true));
      if (step === "rank") turnedWhileRanking = turned;
    });
    expect(outcome.status).toBe("published");
    expect(outcome.opportunities).toBe(15 * ASSETS.length);
    expect(turnedWhileRanking).toBe(true);
    expect((await loadItems(database.db)).map((o) => [o.id, o.net_apr])).toEqual(atOnce.map((o) => [o.id, o.net_apr]));
    // Nothing changed between the two rounds: no opportunity event.
    expect(await database.db.marketEvent.count({ where: { type: { startsWith: "opportunity." } } })).toBe(0);
  });
});
