import { afterEach, describe, expect, it, vi } from "vitest";
import type { Db } from "@/lib/db";
import { FeedStatusBoard, type FeedStatusFigures } from "./feed-status-board";
import { FeedStatusWriter } from "./feed-status-writer";

const T = Date.parse("2026-12-02T12:00:00.000Z");

/** A store that records each write's venue rows, or fails every write when told to. */
function recordingStore(fail: { now: boolean }) {
  const written: { venue: string; updatedAt: number }[][] = [];
  const store = async (_db: Db, figures: readonly FeedStatusFigures[], now: number) => {
    if (fail.now) throw new Error("database unreachable");
    written.push(figures.map((f) => ({ venue: f.venue, updatedAt: now })));
  };
  return { store, written };
}

const db = async () => ({}) as Db;

afterEach(() => {
  vi.useRealTimers();
});

describe("FeedStatusWriter", () => {
  it("writes the board every interval, once more on stop, and nothing after", async () => {
    vi.useFakeTimers({ now: T });
    const board = new FeedStatusBoard();
    board.message("binance", T);
    const { store, written } = recordingStore({ now: false });
    const writer = new FeedStatusWriter(board, db, 5_000, Date.now, store);
    writer.start();
    await vi.advanceTimersByTimeAsync(4_999);
    expect(written).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(written).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(written).toHaveLength(3);
    expect(written[2]).toEqual([{ venue: "binance", updatedAt: T + 15_000 }]);
    await writer.stop();
    expect(written).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(written).toHaveLength(4);
  });

  it("logs a failed write instead of throwing, and writes again on the next turn", async () => {
    const board = new FeedStatusBoard();
    board.message("okx", T);
    const fail = { now: true };
    const { store, written } = recordingStore(fail);
    const writer = new FeedStatusWriter(board, db, 5_000, () => T, store);
    await expect(writer.write()).resolves.toBeUndefined();
    fail.now = false;
    await writer.write();
    expect(written).toEqual([[{ venue: "okx", updatedAt: T }]]);
  });

  it("writes nothing while the board has heard of no venue", async () => {
    const { store, written } = recordingStore({ now: false });
    await new FeedStatusWriter(new FeedStatusBoard(), db, 5_000, Date.now, store).write();
    expect(written).toHaveLength(0);
  });
});
