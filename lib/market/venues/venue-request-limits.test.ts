import { describe, expect, it } from "vitest";
import { VENUE_IDS } from "../model/types";
import { POLL_BUDGET_SHARE, POLL_CADENCE_MAX_MS, POLL_CADENCE_MIN_MS, pollCadenceMs, refreshRequests, VENUE_REFRESH_COSTS, VENUE_REQUEST_LIMITS } from "./venue-request-limits";

describe("pollCadenceMs", () => {
  it("gives every venue that pays a fixed price per refresh 10 to 15 s", () => {
    for (const venue of VENUE_IDS.filter((v) => !VENUE_REFRESH_COSTS[v].perMarkets)) {
      const cadence = pollCadenceMs(venue, 600);
      expect(cadence, venue).toBeGreaterThanOrEqual(POLL_CADENCE_MIN_MS);
      expect(cadence, venue).toBeLessThanOrEqual(POLL_CADENCE_MAX_MS);
    }
  });

  it("keeps a poll within its share of the venue's rate, but for the 15 s ceiling", () => {
    for (const venue of VENUE_IDS) {
      const cadence = pollCadenceMs(venue, 600);
      const share = refreshRequests(venue, 600) / ((cadence / 1_000) * VENUE_REQUEST_LIMITS[venue].requestsPerSecond);
      if (cadence < POLL_CADENCE_MAX_MS) expect(share, venue).toBeLessThanOrEqual(POLL_BUDGET_SHARE + 1e-9);
    }
    // BitMEX allows half a request a second: at the ceiling one request per refresh is 13 % of it.
    expect(pollCadenceMs("bitmex")).toBe(15_000);
    expect(pollCadenceMs("bybit")).toBe(10_000);
    expect(pollCadenceMs("hyperliquid")).toBe(10_000);
  });

  it("slows a venue that costs a request per market (or per batch) as its list grows", () => {
    expect(refreshRequests("grvt", 600)).toBe(600);
    expect(refreshRequests("htx", 600)).toBe(62);
    expect(pollCadenceMs("grvt", 50)).toBe(15_000);
    expect(pollCadenceMs("grvt", 600)).toBe(60_000);
    expect(pollCadenceMs("htx", 600)).toBe(62_000);
    expect(pollCadenceMs("htx", 100)).toBe(15_000);
  });
});
