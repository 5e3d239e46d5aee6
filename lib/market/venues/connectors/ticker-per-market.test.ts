import { describe, expect, it } from "vitest";
import { marketsPerRefresh } from "../venue-request-limits";
import type { FundingObservation } from "./build-snapshot";
import { KEPT_FOR_MS, tickerPerMarket, turnOf } from "./ticker-per-market";

const MINUTE = 60_000;
const markets = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `M${String(i).padStart(3, "0")}`, symbol: `M${i}/USDT:USDT` }));
type Market = ReturnType<typeof markets>[number];

/** A venue that answers every market with the refresh's time as its rate, counting what it is asked; `failing` ids throw. */
function venueAnswering(failing: ReadonlySet<string> = new Set()) {
  const asked: string[][] = [];
  let now = 0;
  return {
    asked,
    refresh(client: object, list: readonly Market[], at: number) {
      now = at;
      const turn: string[] = [];
      asked.push(turn);
      return tickerPerMarket("derive", client, list, at, async (market): Promise<FundingObservation> => {
        turn.push(market.id);
        if (failing.has(market.id)) throw new Error(`no ticker for ${market.id}`);
        return { symbol: market.symbol, fundingRate: now, interval: null, observedAt: now };
      });
    },
  };
}

describe("tickerPerMarket", () => {
  const perRefresh = marketsPerRefresh("derive"); // 20: Derive's 20 requests a second

  it("asks every market each refresh while they fit in a refresh's share", async () => {
    const venue = venueAnswering();
    const client = {};
    const list = markets(perRefresh);
    await venue.refresh(client, list, 0);
    const second = await venue.refresh(client, list, MINUTE);
    expect(venue.asked.map((turn) => turn.length)).toEqual([perRefresh, perRefresh]);
    expect(second.observations.every((o) => o.observedAt === MINUTE)).toBe(true);
  });

  it("asks a wider list a share at a time, longest asked first, and serves the rest from their last answer", async () => {
    const venue = venueAnswering();
    const client = {};
    const list = markets(50);
    const served = [];
    for (let round = 0; round < 4; round++) served.push(await venue.refresh(client, list, round * MINUTE));
    expect(venue.asked.map((turn) => turn.length)).toEqual([20, 20, 20, 20]);
    expect(venue.asked[0]).toEqual(list.slice(0, 20).map((m) => m.id));
    expect(venue.asked[1]).toEqual(list.slice(20, 40).map((m) => m.id));
    // The ten never asked, then ten of those asked longest ago, in list order among equals.
    expect(venue.asked[2]).toEqual([...list.slice(40, 50), ...list.slice(0, 10)].map((m) => m.id));
    expect(venue.asked[3]).toEqual(list.slice(10, 30).map((m) => m.id));
    expect(served.map((s) => s.observations.length)).toEqual([20, 40, 50, 50]);
    // Each market with the time of its own last answer, in list order.
    const last = served[3]!.observations;
    expect(last.map((o) => o.symbol)).toEqual(list.map((m) => m.symbol));
    expect(last.slice(0, 10).every((o) => o.observedAt === 2 * MINUTE)).toBe(true);
    expect(last.slice(10, 30).every((o) => o.observedAt === 3 * MINUTE)).toBe(true);
    expect(last.slice(30, 40).every((o) => o.observedAt === MINUTE)).toBe(true);
  });

  it("keeps each client's answers apart", async () => {
    const venue = venueAnswering();
    const list = markets(30);
    await venue.refresh({}, list, 0);
    const fresh = await venue.refresh({}, list, MINUTE);
    expect(venue.asked[1]).toEqual(list.slice(0, 20).map((m) => m.id));
    expect(fresh.observations).toHaveLength(20);
  });

  it("serves a failed market's last answer and names it, and no answer older than KEPT_FOR_MS", async () => {
    const failing = new Set(["M001"]);
    const venue = venueAnswering();
    const client = {};
    const list = markets(3);
    await venue.refresh(client, list, 0);
    const failingVenue = venueAnswering(failing);
    const withFailure = await failingVenue.refresh(client, list, KEPT_FOR_MS);
    expect(withFailure.warnings).toEqual(["ticker: 1 of 3 failed (M001): Error: no ticker for M001"]);
    expect(withFailure.observations.map((o) => o.observedAt)).toEqual([KEPT_FOR_MS, 0, KEPT_FOR_MS]);
    // Asked again and failing again, its answer now older than KEPT_FOR_MS: served no more.
    const later = await failingVenue.refresh(client, list, KEPT_FOR_MS + 1);
    expect(later.observations.map((o) => o.symbol)).toEqual(["M0/USDT:USDT", "M2/USDT:USDT"]);
  });

  it("makes the venue stale when every request of a refresh fails, answers kept or not", async () => {
    const client = {};
    const list = markets(2);
    await venueAnswering().refresh(client, list, 0);
    await expect(venueAnswering(new Set(["M000", "M001"])).refresh(client, list, MINUTE)).rejects.toThrow("no ticker for M000");
  });

  it("forgets a market no longer listed", async () => {
    const venue = venueAnswering();
    const client = {};
    const list = markets(25);
    await venue.refresh(client, list, 0);
    await venue.refresh(client, list.slice(1), MINUTE);
    const back = await venue.refresh(client, list, 2 * MINUTE);
    // M000, forgotten, is never-asked again and comes first.
    expect(venue.asked[2]![0]).toBe("M000");
    expect(back.observations[0]!.observedAt).toBe(2 * MINUTE);
  });
});

describe("turnOf", () => {
  it("takes the never asked first, then the longest asked, up to its share", () => {
    const list = markets(4);
    const kept = new Map([
      ["M000", { askedAt: 30 }],
      ["M001", { askedAt: 10 }],
      ["M003", { askedAt: 10 }],
    ]);
    expect(turnOf(list, kept, 3).map((m) => m.id)).toEqual(["M002", "M001", "M003"]);
    expect(turnOf(list, kept, 4).map((m) => m.id)).toEqual(["M000", "M001", "M002", "M003"]);
  });
});
