import { afterEach, describe, expect, it } from "vitest";
import type { MarketSnapshot, VenueId } from "@/lib/market/model/types";
import { STREAM_PROTOCOLS } from "@/lib/market/venues/streams/stream-protocols";
import { applyStreamState, streamNames, wrapCollect } from "./apply-stream-state";
import { streamedState, VENUE_SPECS, type Row } from "./freshness-streams";
import { createVenueFetcher } from "./replay-venue-fetcher";

// The freshness bench's REST replay told the stream's state: for every streamed venue, its widened
// replay fetched through the real connector with `collect` wrapped, the player's state of the
// synthetic markets (their stream names: Lighter's integer market_id, Hyperliquid's coin, ...) decoded
// from the bench's own frames comes out in the venue's snapshots, in snapshot units, for exactly
// those markets; the recorded markets keep the recorded answer.

const ASSETS = 3;
const venues = Object.keys(VENUE_SPECS) as VenueId[];
const EIGHT_HOURS = 28_800_000;
const nameOf = (venue: VenueId, m: MarketSnapshot) => STREAM_PROTOCOLS[venue]!.streamKey?.(m) ?? m.venueMarketId;

let unwrap: (() => void) | undefined;
afterEach(() => {
  unwrap?.();
  unwrap = undefined;
});

describe("the freshness bench's REST replay with the stream's state", () => {
  it.each(venues)("%s: the streamed markets' snapshots state the stream's rate and prices, the others the recording's", async (venue) => {
    const fetcher = createVenueFetcher({ assets: ASSETS });
    const recorded = await fetcher(venue, { timeoutMs: 30_000 });
    if (recorded.status !== "ok") throw new Error(`${venue}: ${recorded.error}`);
    const synthetic = recorded.snapshots.filter((m) => /^A\d{4}$/.test(m.base));
    expect(synthetic.length, venue).toBeGreaterThanOrEqual(ASSETS);
    const at = Date.now();
    // Rates of both signs unlike any recorded one, moved marks.
    const rows: Row[] = synthetic.map((m, i) => ({
      id: nameOf(venue, m),
      rate: Number(((i % 2 ? -1 : 1) * (3e-4 + (i + 1) * 1.7e-10)).toPrecision(12)),
      mark: Number(((m.markPrice ?? 100) * 1.01 + i).toPrecision(10)),
      next: at - (at % EIGHT_HOURS) + EIGHT_HOURS,
    }));
    const state = streamedState(venue, rows, at);
    expect(Object.keys(state).sort()).toEqual(rows.map((r) => r.id).sort());
    let asked = 0;
    unwrap = wrapCollect(venue, async (asking) => {
      expect(asking).toBe(venue);
      asked += 1;
      return state;
    });

    const told = await fetcher(venue, { timeoutMs: 30_000 });
    if (told.status !== "ok") throw new Error(`${venue}: ${told.error}`);
    expect(asked).toBe(1);
    expect(told.snapshots.map((m) => m.market)).toEqual(recorded.snapshots.map((m) => m.market));
    const byName = new Map(told.snapshots.map((m) => [nameOf(venue, m), m]));
    for (const row of rows) {
      const snapshot = byName.get(row.id)!;
      expect(snapshot.fundingRate, `${venue} ${row.id}`).toBe(row.rate);
      expect(snapshot.markPrice, `${venue} ${row.id}`).toBe(state[row.id]!.markPrice === undefined ? recorded.snapshots.find((m) => m.market === snapshot.market)!.markPrice : row.mark);
      if (state[row.id]!.predictedFundingRate !== undefined) expect(snapshot.predictedFundingRate).toBe(state[row.id]!.predictedFundingRate);
    }
    // Every streamed venue's frames state a mark for its markets, but HTX's funding channel (its REST mark stays the recording's, as its stream never moves it).
    expect(rows.filter((row) => byName.get(row.id)!.markPrice !== row.mark).length).toBe(venue === "htx" ? rows.length : 0);
    const streamed = new Set(rows.map((r) => r.id));
    for (const snapshot of recorded.snapshots.filter((m) => !streamed.has(nameOf(venue, m)))) {
      const after = told.snapshots.find((m) => m.market === snapshot.market)!;
      expect({ rate: after.fundingRate, mark: after.markPrice }).toEqual({ rate: snapshot.fundingRate, mark: snapshot.markPrice });
    }
  }, 60_000);

  it("keeps the recorded answer where the player has no state of the venue", async () => {
    const fetcher = createVenueFetcher({ assets: ASSETS });
    const recorded = await fetcher("bybit", { timeoutMs: 30_000 });
    unwrap = wrapCollect("bybit", async () => undefined);
    const again = await fetcher("bybit", { timeoutMs: 30_000 });
    if (recorded.status !== "ok" || again.status !== "ok") throw new Error("bybit's replay failed");
    expect(again.snapshots.map((m) => [m.market, m.fundingRate, m.markPrice])).toEqual(recorded.snapshots.map((m) => [m.market, m.fundingRate, m.markPrice]));
  });
});

describe("applyStreamState", () => {
  const observation = { symbol: "A/USDT:USDT", fundingRate: 1e-4, predictedFundingRate: 2e-4, markPrice: 10, indexPrice: 9, interval: null, openInterestUsd: 5 };
  const names = streamNames([{ symbol: "A/USDT:USDT", venueMarketId: "7", venueBase: "A" }]);

  it("takes the fields the stream states, a `null` one as absent, and keeps the rest", () => {
    const [applied] = applyStreamState([observation], names, { "7": { fundingRate: -3e-4, markPrice: 11, predictedFundingRate: null } });
    expect(applied).toEqual({ ...observation, fundingRate: -3e-4, markPrice: 11, predictedFundingRate: undefined });
  });

  it("names markets by the protocol's stream key where it has one, and leaves a market the state lacks alone", () => {
    const byCoin = streamNames([{ symbol: "A/USDC:USDC", venueMarketId: "0", venueBase: "kA" }], (m) => m.venueBase);
    expect(byCoin.get("A/USDC:USDC")).toBe("kA");
    expect(applyStreamState([observation], names, { "8": { fundingRate: 5e-4 } })).toEqual([observation]);
  });
});
