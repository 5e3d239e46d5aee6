import { describe, expect, it } from "vitest";
import { computeOpportunities } from "../opportunities/rank-opportunities";
import { PRICE_OBSERVATION_TOLERANCE_MS } from "../model/price-spread";
import type { VenueId } from "../model/types";
import { replaySampleMarket } from "./replay-sample-market";
import { SAMPLE_VENUE_IDS } from "@/tests/fixtures/venues/sample-venue-responses";

// The shipped sample as the first-run screener shows it: replayed from the bundled JSON, ranked.
const replayed = replaySampleMarket();
const opportunities = replayed.then(({ snapshots }) => computeOpportunities(snapshots).opportunities);

describe("the shipped offline sample", () => {
  it("dates every venue's snapshots at that venue's stated recording time, payload times included", async () => {
    const { snapshots, recordedAt } = await replayed;
    expect(new Set(snapshots.map((s) => s.exchange))).toEqual(new Set(SAMPLE_VENUE_IDS));
    for (const s of snapshots) expect(s.observedAt, `${s.exchange} ${s.market}`).toBe(recordedAt[s.exchange as VenueId]);
    expect(Object.fromEntries(Object.entries(recordedAt).map(([venue, at]) => [venue, new Date(at).toISOString()]))).toEqual({
      aster: "2025-09-25T01:38:55.000Z",
      backpack: "2025-10-03T10:30:00.000Z",
      binance: "2025-06-17T08:38:08.000Z",
      bitget: "2026-08-01T07:40:00.000Z",
      bybit: "2026-09-27T13:50:00.000Z",
      derive: "2025-01-06T09:31:25.000Z",
      drift: "2026-02-10T13:30:00.000Z",
      dydx: "2025-12-08T16:12:00.000Z",
      edgex: "2026-09-13T22:37:00.000Z",
      extended: "2026-04-29T06:30:00.000Z",
      gate: "2026-09-27T13:50:00.000Z",
      hibachi: "2026-09-13T22:40:00.000Z",
      hyperliquid: "2026-09-27T13:50:00.000Z",
      "hyperliquid:hyna": "2026-05-29T12:20:00.000Z",
      kucoinfutures: "2023-10-31T12:55:42.390Z",
      lighter: "2025-11-13T03:46:41.000Z",
      okx: "2026-09-27T13:50:00.000Z",
      variational: "2026-09-13T22:03:20.000Z",
      woo: "2025-07-04T10:13:57.798Z",
    });
  });

  it("gives a price spread only between legs observed within the tolerance", async () => {
    const items = await opportunities;
    const priced = items.filter((o) => o.price_spread_bps !== null);
    expect(priced.length).toBeGreaterThan(5);
    for (const o of priced) {
      const apart = Math.abs(Date.parse(o.long.observed_at ?? "") - Date.parse(o.short.observed_at ?? ""));
      expect(apart, o.id).toBeLessThanOrEqual(PRICE_OBSERVATION_TOLERANCE_MS);
      expect(o.price_spread_unavailable_reason, o.id).toBeNull();
      // Same-moment prices of one asset on two venues differ by a few bps, not hundreds.
      expect(Math.abs(o.price_spread_bps ?? Infinity), o.id).toBeLessThan(20);
    }
    for (const o of items.filter((item) => item.price_spread_bps === null)) {
      expect(o.price_spread_unavailable_reason, o.id).not.toBeNull();
    }
  });

  it("shows no spread for the cross-day pairs the first-run screener used to price at −496 and ~1,500 bps", async () => {
    const byId = new Map((await opportunities).map((o) => [o.id, o]));
    for (const id of ["ETH-okx-binance", "DOGE-binance-gate", "BTC-binance-okx", "BTC-bitget-okx", "SOL-binance-bybit"]) {
      expect(byId.get(id), id).toMatchObject({ price_spread_bps: null, price_spread_unavailable_reason: "legs_observed_apart" });
    }
    expect(byId.get("ETH-okx-binance")?.long.observed_at).toBe("2026-09-27T13:50:00.000Z");
    expect(byId.get("ETH-okx-binance")?.short.observed_at).toBe("2025-06-17T08:38:08.000Z");
    // Legs of one moment keep theirs: OKX's ETH against Bybit's, Hyperliquid's BTC against Gate's.
    expect(byId.get("ETH-okx-bybit")?.price_spread_bps).toBeCloseTo(5.1344, 4);
    expect(byId.get("BTC-gate-hyperliquid")?.price_spread_bps).toBeCloseTo(-0.4942, 4);
  });
});
