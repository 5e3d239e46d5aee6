import { describe, expect, it } from "vitest";
import type { MarketSnapshot, VenueSnapshotResult } from "../model/types";
import { answeredSnapshots, fetchAllVenues } from "./fetch-all-venues";

const snapshot = (exchange: string, market: string) => ({ exchange, market }) as MarketSnapshot;
const ok = (exchange: string, ...markets: string[]): VenueSnapshotResult => ({
  status: "ok",
  exchange: exchange as never,
  fetchedAt: 1,
  snapshots: markets.map((market) => snapshot(exchange, market)),
  excluded: { notLinearPerp: 0, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
  warnings: [],
});

describe("answeredSnapshots", () => {
  it("gives every answering venue's snapshots in the results' order, none of a stale venue", () => {
    const results = [ok("okx", "A", "B"), { status: "stale", exchange: "bybit", fetchedAt: 1, error: "down" } as VenueSnapshotResult, ok("gate"), ok("binance", "C")];
    expect(answeredSnapshots(results).map((s) => `${s.exchange}:${s.market}`)).toEqual(["okx:A", "okx:B", "binance:C"]);
    expect(answeredSnapshots([])).toEqual([]);
  });
});

describe("fetchAllVenues", () => {
  it("answers one result a venue, in the venues' order, a throwing fetcher's venue stale", async () => {
    const results = await fetchAllVenues(
      async (venue) => {
        if (venue === "bybit") throw new Error("refused");
        return ok(venue, `${venue}-market`);
      },
      { timeoutMs: 1_000, venues: ["okx", "bybit", "gate"] },
    );
    expect(results.map((r) => [r.exchange, r.status])).toEqual([["okx", "ok"], ["bybit", "stale"], ["gate", "ok"]]);
    expect(results[1]).toMatchObject({ error: "refused" });
    expect(answeredSnapshots(results).map((s) => s.market)).toEqual(["okx-market", "gate-market"]);
  });
});
