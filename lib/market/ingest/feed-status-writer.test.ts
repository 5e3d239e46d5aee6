import { afterEach, describe, expect, it, vi } from "vitest";
import type { Db } from "@/lib/db";
import { FeedStatusBoard } from "./feed-status-board";
import { FeedStatusWriter } from "./feed-status-writer";

const T = Date.parse("2026-12-02T12:00:00.000Z");

/** A database that records each venue row written, or fails every write when told to. */
function recordingDb(fail: { now: boolean }) {
  const written: { venue: string; updatedAt: number }[][] = [];
  const db = {
    venueFeedStatus: {
      upsert: (args: { create: { venue: string; updatedAt: Date } }) => ({ venue: args.create.venue, updatedAt: args.create.updatedAt.getTime() }),
    },
    $transaction: async (rows: { venue: string; updatedAt: number }[]) => {
      if (fail.now) throw new Error("database unreachable");
      written.push(rows);
    },
  } as unknown as Db;
  return { db, written };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("FeedStatusWriter", () => {
  it("writes the board every interval, once more on stop, and nothing after", async () => {
    vi.useFakeTimers({ now: T });
    const board = new FeedStatusBoard();
    board.message("binance", T);
    const { db, written } = recordingDb({ now: false });
    const writer = new FeedStatusWriter(board, async () => db, 5_000);
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
    const { db, written } = recordingDb(fail);
    const writer = new FeedStatusWriter(board, async () => db, 5_000, () => T);
    await expect(writer.write()).resolves.toBeUndefined();
    fail.now = false;
    await writer.write();
    expect(written).toEqual([[{ venue: "okx", updatedAt: T }]]);
  });

  it("writes nothing while the board has heard of no venue", async () => {
    const { db, written } = recordingDb({ now: false });
    await new FeedStatusWriter(new FeedStatusBoard(), async () => db).write();
    expect(written).toHaveLength(0);
  });
});
