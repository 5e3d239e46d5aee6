import { describe, expect, it } from "vitest";
import { historyEnd } from "./history-end";

const NOW = new Date("2026-12-02T08:00:00.000Z");

describe("historyEnd", () => {
  it("ends a live set's history at the view's moment", () => {
    expect(historyEnd({ sample: false, asOf: "2026-12-02T07:59:00.000Z" }, NOW)).toBe(NOW);
    expect(historyEnd({ sample: false, asOf: null }, NOW)).toBe(NOW);
  });

  it("ends the offline sample's history at its as-of, where its recorded history ends", () => {
    expect(historyEnd({ sample: true, asOf: "2025-06-17T08:38:08.000Z" }, NOW).toISOString()).toBe("2025-06-17T08:38:08.000Z");
  });

  it("never ends after the view's moment, for a delayed view older than the sample's as-of", () => {
    const before = new Date("2025-06-01T00:00:00.000Z");
    expect(historyEnd({ sample: true, asOf: "2025-06-17T08:38:08.000Z" }, before)).toBe(before);
  });
});
