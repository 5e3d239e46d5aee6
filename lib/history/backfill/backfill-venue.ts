import type { Db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { removeSampleHistory } from "@/lib/market/ingest/store-sample-history";
import { HistoryMarketGone, type HistoryIo, type HistoryMarket, type HistorySettlement, type VenueHistoryReader } from "../history-types";
import { afterPage, nextWalk, pageOutcome, type CursorState, type Window } from "./backfill-cursor";
import type { CursorStatus } from "./backfill-progress";
import { CursorMovedError, markCursor, storePages, workableCursors, type BackfillCursorRow } from "./backfill-store";
import { MAX_ATTEMPTS, retryDelayMs } from "./retry-backoff";

/** Settlements closer than this are one settlement stamped twice (venues jitter by milliseconds). */
const SAME_SETTLEMENT_MS = 60_000;

/** A page's settlements inside `window`, ascending, one per settlement. */
export function pageSettlements(settlements: readonly HistorySettlement[], window: Window): HistorySettlement[] {
  return oncePerSettlement(settlements.filter((s) => s.time >= window.since && s.time <= window.until));
}

/** `settlements` ascending, one per settlement: of two stamps closer than SAME_SETTLEMENT_MS the older stands. */
export function oncePerSettlement(settlements: readonly HistorySettlement[]): HistorySettlement[] {
  const sorted = [...settlements].sort((a, b) => a.time - b.time);
  const kept: HistorySettlement[] = [];
  for (const settlement of sorted) if (kept.length === 0 || settlement.time - kept.at(-1)!.time >= SAME_SETTLEMENT_MS) kept.push(settlement);
  return kept;
}

/**
 * How far back to read: `since`, or the venue's own depth where that is shorter. Asked for older
 * settlements than it keeps, a venue walked forward by time would answer an empty first page, which
 * ends the walk with nothing read.
 */
export function depthSince(since: number, reader: Pick<VenueHistoryReader, "limits">, now: number): number {
  const depth = reader.limits.maxDepthDays;
  return depth === null ? since : Math.max(since, now - depth * 86_400_000);
}

/** What happened to one market's cursor, for progress reports. */
export type BackfillEvent =
  | { kind: "stored"; market: HistoryMarket; pages: number; inserted: number; settlements: number }
  | { kind: "done"; market: HistoryMarket }
  | { kind: "delisted"; market: HistoryMarket; reason: string }
  | { kind: "retry" | "failed"; market: HistoryMarket; error: string };

export interface BackfillVenueOptions {
  db: Db;
  reader: VenueHistoryReader;
  /** The network as the reader sees it, drawing on the venue's request budget. */
  io: HistoryIo;
  /** How far back to read (epoch ms). */
  since: number;
  now?: () => number;
  /** No page is started after this moment (a job's time slice): the rest waits for the next run. */
  deadline?: number;
  /** Ends the run between two pages (a shutdown). */
  signal?: AbortSignal;
  /** Tries failed markets again (an operator's run). */
  withFailed?: boolean;
  random?: () => number;
  onEvent?: (event: BackfillEvent) => void;
  /** Lets other work run between pages (the live round's on this thread). */
  pause?: () => Promise<void>;
  /** Pages read are stored together once they hold this many settlements (default STORE_ROWS). */
  storeRows?: number;
}

/**
 * A market's pages are stored together, with the cursor moved past the last of them, once they hold
 * STORE_ROWS settlements, once the first has waited STORE_AFTER_MS, when the walk ends and before the
 * run stops. One statement a page made small pages cost the database more than their rows (Paradex
 * answers one settlement a request, KuCoin a dozen); a killed process loses at most the pages of the
 * last second, which the next run reads again from the stored cursor.
 */
export const STORE_ROWS = 2_000;
export const STORE_AFTER_MS = 1_000;

export interface BackfillVenueResult {
  pages: number;
  inserted: number;
  /** True when the deadline or the signal ended the run with work left. */
  interrupted: boolean;
  /**
   * True when a market's request failed (other than not-found): the run ends there, since a venue
   * that is down or refusing would fail every market next, one request each.
   */
  failed: boolean;
}

const betweenPages = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Reads the venue's history of each of its workable markets page by page into the settlement table,
 * one market after another. Pages are stored with their cursor in one statement, a few at a time
 * (STORE_ROWS; backfill-store.ts storePages), so the run may be stopped or killed anywhere. A market the venue
 * does not know (HistoryMarketGone, or NOT_FOUND) is delisted with the venue's reason; one whose
 * whole window the venue answers empty is done, its `lastError` saying so; a failure waits
 * retryDelayMs (or the venue's Retry-After) and, after MAX_ATTEMPTS in a row, is left failed, and
 * ends the run.
 */
export async function backfillVenue(options: BackfillVenueOptions): Promise<BackfillVenueResult> {
  const { db, reader } = options;
  const now = options.now ?? Date.now;
  const pause = options.pause ?? betweenPages;
  const result: BackfillVenueResult = { pages: 0, inserted: 0, interrupted: false, failed: false };
  const stopping = () => options.signal?.aborted === true || (options.deadline !== undefined && now() >= options.deadline);
  const cursors = await workableCursors(db, reader.exchange, now(), { withFailed: options.withFailed });
  for (const cursor of cursors) {
    if (stopping()) {
      result.interrupted = true;
      break;
    }
    const outcome = await walkMarket(options, cursor, result, now, stopping, pause);
    if (outcome === "interrupted") {
      result.interrupted = true;
      break;
    }
    if (outcome === "failed") {
      result.failed = true;
      break;
    }
  }
  return result;
}

/** Pages of one walk read but not yet stored: the cursor moves from `from` to `to` when they are. */
interface UnstoredPages {
  from: CursorState;
  to: CursorState & { status: CursorStatus };
  settlements: HistorySettlement[];
  pages: number;
  readSince: number;
}

async function walkMarket(
  options: BackfillVenueOptions,
  cursor: BackfillCursorRow,
  result: BackfillVenueResult,
  now: () => number,
  stopping: () => boolean,
  pause: () => Promise<void>,
): Promise<"finished" | "interrupted" | "failed"> {
  const { db, reader, io, onEvent } = options;
  const storeRows = options.storeRows ?? STORE_ROWS;
  const { market } = cursor;
  let state: CursorState = cursor;
  /** Settlements the venue answered in this walk of the market, in or out of its window. */
  let seen = 0;
  let unstored: UnstoredPages | null = null;
  /** Stores the pages read so far; false when another run moved the cursor first (it holds the market now). */
  const store = async (): Promise<boolean> => {
    if (unstored === null) return true;
    const { from, to, settlements, pages } = unstored;
    unstored = null;
    const rows = oncePerSettlement(settlements);
    // The venue's real history arrives: the offline sample's recorded rows of it go first.
    if (rows.length > 0) await removeSampleHistory(db, [reader.exchange]);
    try {
      const stored = await storePages(db, market, from, to, rows, now());
      result.pages += pages;
      result.inserted += stored.inserted;
      onEvent?.({ kind: "stored", market, pages, inserted: stored.inserted, settlements: rows.length });
      return true;
    } catch (error) {
      if (error instanceof CursorMovedError) return false;
      throw error;
    }
  };
  for (;;) {
    const target = { since: depthSince(options.since, reader, now()), now: now() };
    const walk = nextWalk(state, target);
    if (walk === null) {
      if (cursor.status !== "done") await markCursor(db, market, { status: "done", attempts: 0, lastError: null }, now());
      onEvent?.({ kind: "done", market });
      return "finished";
    }
    if (stopping()) return (await store()) ? "interrupted" : "finished";
    let page;
    try {
      page = await reader.readPage(io, market, walk, state.pageCursor);
    } catch (error) {
      if (!(await store())) return "finished";
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof HistoryMarketGone || (error instanceof AppError && error.code === "NOT_FOUND")) {
        await markCursor(db, market, { status: "delisted", attempts: 0, lastError: message }, now());
        onEvent?.({ kind: "delisted", market, reason: message });
        return "finished";
      }
      const attempts = cursor.attempts + 1;
      const failed = attempts >= MAX_ATTEMPTS;
      // A venue that names its own wait (429 Retry-After) is not asked sooner.
      const asked = error instanceof AppError && error.extra.retryAfter ? error.extra.retryAfter * 1_000 : 0;
      const nextAttemptAt = now() + Math.max(asked, retryDelayMs(attempts, options.random));
      await markCursor(db, market, { status: failed ? "failed" : "pending", attempts, lastError: message, nextAttemptAt }, now());
      onEvent?.({ kind: failed ? "failed" : "retry", market, error: message });
      return "failed";
    }
    // Stopped while the page was on its way: it is read again by the next run.
    if (options.signal?.aborted) return (await store()) ? "interrupted" : "finished";
    const outcome = pageOutcome(page.settlements.map((s) => s.time), walk, page.next);
    const moved = afterPage(state, walk, outcome, reader.limits.pagination === "forward-by-time");
    const walkEnded = moved.walkSince === null;
    const done = walkEnded && nextWalk(moved, { since: depthSince(options.since, reader, now()), now: now() }) === null;
    unstored ??= { from: state, to: { ...moved, status: "pending" }, settlements: [], pages: 0, readSince: now() };
    unstored.to = { ...moved, status: done ? "done" : "pending" };
    unstored.settlements.push(...pageSettlements(page.settlements, walk));
    unstored.pages += 1;
    // A batch never spans two walks: each is one unbroken run of settlements, whose intervals are derived together.
    if (walkEnded || unstored.settlements.length >= storeRows || now() - unstored.readSince >= STORE_AFTER_MS) {
      if (!(await store())) return "finished";
    }
    seen += page.settlements.length;
    // Empty over the whole window, from a market never read before: the venue keeps no history of it
    // (a market listed since, or one it dropped quietly). Done, not retried, and the cursor says why.
    if (done && seen === 0 && cursor.rows === 0 && state.coveredSince === null) {
      await markCursor(db, market, { status: "done", attempts: 0, lastError: `${reader.exchange} answered no settlement of ${market.venueMarketId} since ${new Date(walk.since).toISOString()}` }, now());
    }
    state = moved;
    cursor.status = done ? "done" : "pending";
    cursor.attempts = 0;
    await pause();
  }
}
