import { describe, expect, it } from "vitest";
import { deriveIntervalHours, intervalChangesFromHistory, snapInterval } from "./derive-intervals";

const H = 3_600_000;
const T0 = Date.UTC(2023, 5, 1);
const at = (hours: number[], jitterMs = 0) => hours.map((h, i) => ({ time: T0 + h * H + (i % 2) * jitterMs, rate: 0.0001, intervalHours: null }));
const market = { exchange: "hyperliquid", market: "BTC/USDC:USDC", venueMarketId: "BTC", base: "BTC" };

describe("intervals derived from settlement times", () => {
  it("snaps gaps with jitter to the venue intervals", () => {
    expect(snapInterval(8.001)).toBe(8);
    expect(snapInterval(16)).toBeNull();
    expect(deriveIntervalHours(at([0, 8, 16, 24], 3)).map((s) => s.intervalHours)).toEqual([8, 8, 8, 8]);
  });

  it("reads a missing settlement as a gap, not a longer interval", () => {
    expect(deriveIntervalHours(at([0, 8, 24, 32])).map((s) => s.intervalHours)).toEqual([8, 8, 8, 8]);
    // 4 h schedule missing one: 8 h between two 4 h neighbours.
    expect(deriveIntervalHours(at([0, 4, 8, 16, 20])).map((s) => s.intervalHours)).toEqual([4, 4, 4, 4, 4]);
  });

  it("finds a change of interval (Hyperliquid's 8 h to 1 h) effective when the first short interval began", () => {
    const filled = deriveIntervalHours(at([0, 8, 16, 17, 18, 19]));
    expect(filled.map((s) => s.intervalHours)).toEqual([8, 8, 8, 1, 1, 1]);
    const changes = intervalChangesFromHistory(market, filled, new Date(T0 + 20 * H));
    expect(changes).toEqual([
      { exchange: "hyperliquid", market: "BTC/USDC:USDC", base: "BTC", effectiveAt: new Date(T0 + 16 * H), fromHours: 8, toHours: 1, source: "history", detectedAt: new Date(T0 + 20 * H) },
    ]);
  });

  it("keeps a stated interval and uses the stored settlement before the run", () => {
    const stated = [{ time: T0, rate: 0, intervalHours: 4 }, { time: T0 + 8 * H, rate: 0, intervalHours: null }];
    expect(deriveIntervalHours(stated).map((s) => s.intervalHours)).toEqual([4, 8]);
    const filled = deriveIntervalHours(at([8]), { time: T0 });
    expect(filled[0]!.intervalHours).toBe(8);
    expect(intervalChangesFromHistory(market, filled, new Date(), { time: T0, rate: 0, intervalHours: 4 })).toHaveLength(1);
    expect(deriveIntervalHours(at([0]))[0]!.intervalHours).toBeNull();
  });
});
