import { z } from "zod";

/** A market's cursor: `pending` has a walk due (now or after a retry's wait); the others have nothing to do. */
export const CURSOR_STATUSES = ["pending", "done", "delisted", "failed"] as const;
export type CursorStatus = (typeof CURSOR_STATUSES)[number];

/** A venue's cursors of one status, as the database counts them. */
export interface CursorGroup {
  exchange: string;
  status: CursorStatus;
  markets: number;
  /** Of them, waiting for a retry after a failure. */
  retrying: number;
  rows: number;
  oldestSettlement: Date | null;
}

export const backfillProgressSchema = z
  .object({
    state: z
      .enum(["running", "retrying", "done", "failed"])
      .describe(
        "`running` while markets are left to read; `retrying` when every one left waits after a failure (a venue outage); " +
          "`done` when every market was read to the depth asked (or the venue no longer lists it); `failed` when the markets " +
          "left gave up after repeated failures (a later run tries them again).",
      ),
    markets_done: z.number().int().nonnegative().describe("Markets read to the depth asked, delisted ones included."),
    markets_delisted: z
      .number()
      .int()
      .nonnegative()
      .describe("Of the markets done, those the venue answered it does not know (delisted): not asked again, nothing stored."),
    markets_total: z.number().int().nonnegative().describe("Markets the backfill knows of this exchange."),
    rows: z.number().int().nonnegative().describe("Settlements the backfill stored (rows already recorded by the live rounds not counted)."),
    oldest_settlement: z.iso.datetime().nullable().describe("ISO 8601 UTC of the oldest settlement the backfill stored; `null` before the first."),
  })
  .describe("The funding-history backfill of this exchange; `null` when it has not started (or the venue serves no history).");
export type BackfillProgress = z.infer<typeof backfillProgressSchema>;

/** Each venue's progress from its cursor groups. */
export function venueProgress(groups: readonly CursorGroup[]): Map<string, BackfillProgress> {
  const byVenue = new Map<string, CursorGroup[]>();
  for (const group of groups) byVenue.set(group.exchange, [...(byVenue.get(group.exchange) ?? []), group]);
  const progress = new Map<string, BackfillProgress>();
  for (const [exchange, venueGroups] of byVenue) {
    const count = (status: CursorStatus) => venueGroups.filter((g) => g.status === status).reduce((sum, g) => sum + g.markets, 0);
    const pending = venueGroups.filter((g) => g.status === "pending");
    const left = count("pending");
    const retrying = pending.reduce((sum, g) => sum + g.retrying, 0);
    const oldest = venueGroups.map((g) => g.oldestSettlement?.getTime()).filter((t): t is number => t !== undefined);
    progress.set(exchange, {
      state: left > 0 ? (retrying === left ? "retrying" : "running") : count("failed") > 0 ? "failed" : "done",
      markets_done: count("done") + count("delisted"),
      markets_delisted: count("delisted"),
      markets_total: venueGroups.reduce((sum, g) => sum + g.markets, 0),
      rows: venueGroups.reduce((sum, g) => sum + g.rows, 0),
      oldest_settlement: oldest.length ? new Date(Math.min(...oldest)).toISOString() : null,
    });
  }
  return progress;
}

/** The share done, 0..1 (1 for a venue with no markets: nothing is left). */
export function doneShare(progress: Pick<BackfillProgress, "markets_done" | "markets_total">): number {
  return progress.markets_total === 0 ? 1 : progress.markets_done / progress.markets_total;
}
