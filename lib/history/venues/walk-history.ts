import type { HistoryIo, HistoryMarket, HistorySettlement, VenueHistoryReader } from "../history-types";

/**
 * Settlement times jitter by milliseconds to seconds (Binance `…800002`, Hyperliquid `…600048`,
 * Extended one second past the hour), and no venue settles more often than hourly: two rows within
 * the same minute are the same settlement.
 */
export const SETTLEMENT_SLOT_MS = 60_000;

/** The slot a settlement time falls in: times that differ only by jitter share one. */
export function settlementSlot(time: number): number {
  return Math.round(time / SETTLEMENT_SLOT_MS);
}

/** `settlements` ascending with one row per slot (the first one read wins). */
export function dedupeSettlements(settlements: readonly HistorySettlement[]): HistorySettlement[] {
  const bySlot = new Map<number, HistorySettlement>();
  for (const settlement of settlements) {
    const slot = settlementSlot(settlement.time);
    if (!bySlot.has(slot)) bySlot.set(slot, settlement);
  }
  return [...bySlot.values()].sort((a, b) => a.time - b.time);
}

export interface WalkResult {
  settlements: HistorySettlement[];
  /** Requests of `reader.readPage` made. */
  pages: number;
}

/**
 * Every settlement `reader` serves for `market` in [since, until], page after page: follows each
 * page's `next` and stops at `null`, at an empty page, or at a page lying wholly beyond the range in
 * the walk's direction: older than `since`, or newer than `until` for a forward walk (a venue that
 * ignores the time bounds would otherwise be walked to its first or last day). A page wholly newer
 * than `until` does not stop a walk going back: page-numbered venues answer newest first whatever
 * the range. A cursor seen twice stops the walk too, so a venue answering the same page forever
 * cannot hold it.
 */
export async function walkHistory(
  io: HistoryIo,
  reader: VenueHistoryReader,
  market: HistoryMarket,
  range: { since: number; until: number },
  options: { maxPages?: number } = {},
): Promise<WalkResult> {
  const maxPages = options.maxPages ?? 100_000;
  const read: HistorySettlement[] = [];
  const seen = new Set<string>();
  let cursor: string | null = null;
  let pages = 0;
  while (pages < maxPages) {
    const page = await reader.readPage(io, market, range, cursor);
    pages += 1;
    const inRange = page.settlements.filter((settlement) => settlement.time >= range.since && settlement.time <= range.until);
    read.push(...inRange);
    const allOlder = page.settlements.every((settlement) => settlement.time < range.since);
    const allNewer = page.settlements.every((settlement) => settlement.time > range.until);
    const forward = reader.limits.pagination === "forward-by-time";
    if (page.settlements.length === 0 || allOlder || (forward && allNewer) || page.next === null || seen.has(page.next)) break;
    seen.add(page.next);
    cursor = page.next;
  }
  return { settlements: dedupeSettlements(read), pages };
}
