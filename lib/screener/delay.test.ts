import { describe, expect, it } from "vitest";
import { delayCutoff, delayedSource, FREE_DELAY_MS, isDelayedTier } from "./delay";

const NOW = new Date("2026-11-23T12:00:00.000Z");

describe("the Free plan's delay", () => {
  it("applies to Free only", () => {
    expect(isDelayedTier("free")).toBe(true);
    expect(isDelayedTier("pro")).toBe(false);
    expect(isDelayedTier("desk")).toBe(false);
  });

  it("is 15 minutes", () => {
    expect(FREE_DELAY_MS).toBe(900_000);
    expect(delayCutoff(NOW).toISOString()).toBe("2026-11-23T11:45:00.000Z");
  });

  it("serves the live set when its data is already old enough, or when there is none", () => {
    expect(delayedSource("2025-06-17T08:00:00.000Z", NOW)).toBe("live-set"); // the bundled sample
    expect(delayedSource("2026-11-23T11:45:00.000Z", NOW)).toBe("live-set"); // exactly 15 minutes
    expect(delayedSource(null, NOW)).toBe("live-set");
  });

  it("looks for a stored round while the live set is younger than 15 minutes", () => {
    expect(delayedSource("2026-11-23T11:45:00.001Z", NOW)).toBe("stored-round");
    expect(delayedSource("2026-11-23T11:59:00.000Z", NOW)).toBe("stored-round");
  });
});
