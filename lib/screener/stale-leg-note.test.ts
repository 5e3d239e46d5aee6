import { describe, expect, it } from "vitest";
import { staleLegNote } from "./stale-leg-note";

const f = { at: Date.parse("2026-11-24T12:06:30.000Z"), staleAfterMs: 180_000 };

describe("staleLegNote", () => {
  it("says how old the leg's data is, when it was observed and the threshold", () => {
    expect(staleLegNote({ exchange: "okx", observed_at: "2026-11-24T12:00:00.000Z" }, null, f)).toBe(
      "OKX data 6 min old (observed 2026-11-24 12:00:00 UTC); data older than 3 min is stale.",
    );
    expect(staleLegNote({ exchange: "hyperliquid", observed_at: "2026-11-22T12:00:00.000Z" }, null, { ...f, staleAfterMs: 30 * 60_000 })).toBe(
      "Hyperliquid data 2 days old (observed 2026-11-22 12:00:00 UTC); data older than 30 min is stale.",
    );
  });

  it("dates a leg of unknown time by its set, and says so when nothing dates it", () => {
    expect(staleLegNote({ exchange: "binance", observed_at: null }, "2026-11-24T12:01:00.000Z", f)).toBe(
      "Binance data 5 min old (from before 2026-11-24 12:01:00 UTC); data older than 3 min is stale.",
    );
    expect(staleLegNote({ exchange: "binance", observed_at: null }, null, f)).toBe(
      "Binance: when these numbers were observed is not known; data older than 3 min is stale.",
    );
  });
});
