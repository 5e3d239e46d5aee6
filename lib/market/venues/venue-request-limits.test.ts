import { describe, expect, it } from "vitest";
import { VENUE_IDS } from "../model/types";
import { HIP3_VENUE_IDS } from "../model/hip3-venues";
import { budgetOwner, marketsPerRefresh, POLL_BUDGET_SHARE, POLL_CADENCE_MAX_MS, POLL_CADENCE_MIN_MS, pollCadenceMs, refreshRequests, VENUE_REFRESH_COSTS, VENUE_REQUEST_LIMITS } from "./venue-request-limits";

/** Venues that spend only their own budget. */
const ALONE = VENUE_IDS.filter((venue) => budgetOwner(venue) === venue && venue !== "hyperliquid");

describe("pollCadenceMs", () => {
  it("gives every venue that pays a fixed price per refresh from its own budget 10 to 15 s", () => {
    for (const venue of ALONE.filter((v) => !VENUE_REFRESH_COSTS[v].perMarkets)) {
      const cadence = pollCadenceMs(venue, 600);
      expect(cadence, venue).toBeGreaterThanOrEqual(POLL_CADENCE_MIN_MS);
      expect(cadence, venue).toBeLessThanOrEqual(POLL_CADENCE_MAX_MS);
    }
  });

  it("keeps a poll within its share of the venue's rate, but for the 15 s ceiling", () => {
    for (const venue of ALONE) {
      const cadence = pollCadenceMs(venue, 600);
      const share = refreshRequests(venue, 600) / ((cadence / 1_000) * VENUE_REQUEST_LIMITS[venue].requestsPerSecond);
      if (cadence < POLL_CADENCE_MAX_MS) expect(share, venue).toBeLessThanOrEqual(POLL_BUDGET_SHARE + 1e-9);
    }
    // BitMEX allows half a request a second: at the ceiling one request per refresh is 13 % of it.
    expect(pollCadenceMs("bitmex")).toBe(15_000);
    expect(pollCadenceMs("bybit")).toBe(10_000);
  });

  it("splits Hyperliquid's one budget between the main dex and the HIP-3 dexes, with no ceiling", () => {
    expect(HIP3_VENUE_IDS.map(budgetOwner)).toEqual(HIP3_VENUE_IDS.map(() => "hyperliquid"));
    // Eight venues on one request a second: each polls within an eighth of the 10 % share.
    expect(pollCadenceMs("hyperliquid")).toBe(80_000);
    expect(pollCadenceMs("hyperliquid:xyz")).toBe(160_000);
    const pollsPerSecond = [...HIP3_VENUE_IDS, "hyperliquid" as const].reduce((sum, venue) => sum + refreshRequests(venue, 100) / (pollCadenceMs(venue) / 1_000), 0);
    expect(pollsPerSecond).toBeLessThanOrEqual(POLL_BUDGET_SHARE * VENUE_REQUEST_LIMITS.hyperliquid.requestsPerSecond + 1e-9);
  });

  it("slows a venue that costs a request per batch as its list grows", () => {
    expect(refreshRequests("htx", 600)).toBe(62);
    expect(pollCadenceMs("grvt", 50)).toBe(15_000);
    expect(pollCadenceMs("htx", 600)).toBe(62_000);
    expect(pollCadenceMs("htx", 100)).toBe(15_000);
  });

  it("asks a venue that answers one market a request at most a second of its rate a refresh, whatever its breadth", () => {
    expect(marketsPerRefresh("grvt")).toBe(100);
    expect(marketsPerRefresh("derive")).toBe(20);
    expect(marketsPerRefresh("cryptocom")).toBe(100);
    expect(refreshRequests("grvt", 50)).toBe(50);
    expect(refreshRequests("grvt", 600)).toBe(100);
    expect(refreshRequests("derive", 600)).toBe(20);
    expect(VENUE_IDS.filter((venue) => VENUE_REFRESH_COSTS[venue].inTurns)).toEqual(["grvt", "derive", "cryptocom"]);
    for (const venue of ["grvt", "derive", "cryptocom"] as const) expect(pollCadenceMs(venue, 600), venue).toBe(15_000);
  });
});
