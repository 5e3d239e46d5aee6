import { describe, expect, it } from "vitest";
import { doneShare, venueProgress, type CursorGroup } from "./backfill-progress";

const group = (exchange: string, status: CursorGroup["status"], markets: number, rows = 0, oldest: string | null = null, retrying = 0): CursorGroup => ({
  exchange, status, markets, retrying, rows, oldestSettlement: oldest ? new Date(oldest) : null,
});

describe("backfill progress per venue", () => {
  it("counts done and delisted markets as done, sums rows and takes the oldest settlement", () => {
    const progress = venueProgress([
      group("binance", "done", 30, 1_000, "2025-12-01T00:00:00.000Z"),
      group("binance", "delisted", 2),
      group("binance", "pending", 8, 200, "2025-11-01T08:00:00.000Z"),
      group("okx", "done", 5, 50, "2026-09-01T00:00:00.000Z"),
    ]);
    expect(progress.get("binance")).toEqual({ state: "running", markets_done: 32, markets_delisted: 2, markets_total: 40, rows: 1_200, oldest_settlement: "2025-11-01T08:00:00.000Z" });
    expect(progress.get("okx")).toMatchObject({ state: "done", markets_done: 5, markets_total: 5 });
    expect(doneShare(progress.get("binance")!)).toBe(0.8);
  });

  it("says retrying when every market left waits after a failure, failed when only failed ones are left", () => {
    expect(venueProgress([group("a", "pending", 3, 0, null, 3), group("a", "done", 1)]).get("a")?.state).toBe("retrying");
    expect(venueProgress([group("a", "pending", 3, 0, null, 2)]).get("a")?.state).toBe("running");
    expect(venueProgress([group("a", "failed", 1), group("a", "done", 4)]).get("a")).toMatchObject({ state: "failed", markets_done: 4 });
    expect(doneShare({ markets_done: 0, markets_total: 0 })).toBe(1);
  });
});
