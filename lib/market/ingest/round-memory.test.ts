import { describe, expect, it } from "vitest";
import type { Db } from "@/lib/db";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import type { MarketSnapshot, VenueId, VenueSnapshotResult } from "../model/types";
import { RoundMemory, type StoredRound } from "./round-memory";

const HOUR = 3_600_000;
const startedAt = new Date(Date.UTC(2026, 8, 27, 13));
/** A database whose newest round is `newest`: all that recall reads of it. */
const dbWithNewest = (newest: string) => ({ ingestionRound: { findFirst: async () => ({ id: newest }) } }) as unknown as Db;

function stored(settlements: Map<string, { rate: number; at: number }>, intervalChanges: Map<string, number>): StoredRound {
  return {
    roundId: "r1",
    startedAt,
    results: [{ status: "ok", exchange: "binance", fetchedAt: startedAt.getTime(), snapshots: [makeSnapshot({ exchange: "binance" })], excluded: { notLinearPerp: 0, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 }, warnings: [] }],
    previous: [],
    settlements,
    intervalChanges,
  };
}

describe("RoundMemory.recall", () => {
  it("answers the remembered maps themselves while every entry is still within its window", async () => {
    const settlements = new Map([["a", { rate: 0.0001, at: startedAt.getTime() - HOUR }]]);
    const intervalChanges = new Map([["a", startedAt.getTime() - 24 * HOUR]]);
    const memory = new RoundMemory();
    memory.remember(stored(settlements, intervalChanges));
    const recalled = await memory.recall(dbWithNewest("r1"), "r2", new Date(startedAt.getTime() + 60_000));
    expect(recalled?.settlements).toBe(settlements);
    expect(recalled?.intervalChanges).toBe(intervalChanges);
    expect(recalled?.previous.map((row) => row.exchange)).toEqual(["binance"]);
  });

  it("leaves out settlements older than a day and interval changes older than a week, without changing what it remembers", async () => {
    const at = startedAt.getTime() + 60_000;
    const settlements = new Map([
      ["recent", { rate: 0.0001, at: at - HOUR }],
      ["old", { rate: 0.0002, at: at - 25 * HOUR }],
    ]);
    const intervalChanges = new Map([
      ["recent", at - 6 * 24 * HOUR],
      ["old", at - 8 * 24 * HOUR],
    ]);
    const memory = new RoundMemory();
    memory.remember(stored(settlements, intervalChanges));
    const recalled = await memory.recall(dbWithNewest("r1"), "r2", new Date(at));
    expect([...recalled!.settlements.keys()]).toEqual(["recent"]);
    expect([...recalled!.intervalChanges.keys()]).toEqual(["recent"]);
    expect(settlements.size).toBe(2);
    expect(intervalChanges.size).toBe(2);
  });

  it("answers nothing once another round is the newest stored", async () => {
    const memory = new RoundMemory();
    memory.remember(stored(new Map(), new Map()));
    expect(await memory.recall(dbWithNewest("elsewhere"), "r2", startedAt)).toBeUndefined();
  });
});

describe("RoundMemory.remember", () => {
  const ok = (exchange: VenueId, snapshots: MarketSnapshot[]): VenueSnapshotResult => ({
    status: "ok",
    exchange,
    fetchedAt: startedAt.getTime(),
    snapshots,
    excluded: { notLinearPerp: 0, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
    warnings: [],
  });
  const round = (roundId: string, at: number, results: VenueSnapshotResult[], previous: StoredRound["previous"]): StoredRound => ({
    roundId,
    startedAt: new Date(at),
    results,
    previous,
    settlements: new Map(),
    intervalChanges: new Map(),
  });

  it("keeps a venue that did not answer with its own round's start, whether its rows were recalled or read back", async () => {
    const t0 = startedAt.getTime();
    const [binance, okx] = [makeSnapshot({ exchange: "binance" }), makeSnapshot({ exchange: "okx" })];
    const memory = new RoundMemory();
    // The first round compares with rows read back: okx's from a round 23 hours before.
    const readBack = { ...okx, roundStartedAt: t0 - 23 * HOUR };
    memory.remember(round("r1", t0, [ok("binance", [binance])], [readBack]));
    const second = await memory.recall(dbWithNewest("r1"), "r2", new Date(t0 + 60_000));
    // Each venue's rows are the snapshots (or rows) themselves, not copies.
    expect(second!.previous).toHaveLength(2);
    expect(second!.previous).toContain(binance);
    expect(second!.previous).toContain(readBack);
    // okx stale again; binance answers anew.
    const binanceNow = makeSnapshot({ exchange: "binance", fundingRate: 0.0003 });
    memory.remember(round("r2", t0 + 60_000, [ok("binance", [binanceNow]), { status: "stale", exchange: "okx", fetchedAt: t0, error: "down" }], second!.previous));
    expect(new Set((await memory.recall(dbWithNewest("r2"), "r3", new Date(t0 + 120_000)))!.previous)).toEqual(new Set([binanceNow, readBack]));
    // A day after okx's round, its rows are too old to compare with; binance's are not.
    expect((await memory.recall(dbWithNewest("r2"), "r3", new Date(t0 + 2 * HOUR)))!.previous).toEqual([binanceNow]);
  });

  it("refuses rows it neither recalled nor read back, which carry no round start", () => {
    const memory = new RoundMemory();
    expect(() => memory.remember(round("r1", startedAt.getTime(), [], [makeSnapshot({ exchange: "okx" })]))).toThrow(/no round start/);
  });
});
