/**
 * The shapes the funding-history parts share: a venue's history reader (lib/history/venues/), the
 * store (lib/history/store/), the backfill that walks one with the other (lib/history/backfill/),
 * coverage and export. Times are epoch milliseconds; rates are decimals per the settlement's interval,
 * as the venue quotes them.
 */

/** One market as a history reader asks the venue for it. */
export interface HistoryMarket {
  exchange: string;
  /** The unified symbol the service stores settlements under (`BTC/USDT:USDT`). */
  market: string;
  /** The venue's own id for the market (`BTCUSDT`, `BTC-USDT-SWAP`, `BTC`). */
  venueMarketId: string;
  base: string;
}

/** One funding settlement as a venue's history states it. */
export interface HistorySettlement {
  /** The settlement moment (the end of the interval the rate paid for). */
  time: number;
  /** Decimal per interval. */
  rate: number;
  /** Hours of the interval when the venue states it; null when it must be derived from the times. */
  intervalHours: number | null;
}

/** One page of a venue's answer, and where the next request continues (null: nothing further). */
export interface HistoryPage {
  settlements: HistorySettlement[];
  next: string | null;
}

/** How a venue serves history: what the backfill plans with and what coverage reports. */
export interface VenueHistoryLimits {
  /** Most rows one request returns. */
  pageSize: number;
  /** How far back the venue serves, in days; null when it states no bound. */
  maxDepthDays: number | null;
  /** How pages follow each other. */
  pagination: "forward-by-time" | "backward-by-time" | "page-number" | "cursor" | "single-page";
  /** Requests per second the venue's published limit allows this endpoint. */
  requestsPerSecond: number;
  /** Where these figures come from (a documentation URL, a recording). */
  source: string;
}

/** The network as a history reader sees it: the backfill gives it the venue's budget and retries. */
export interface HistoryIo {
  getJson(url: string): Promise<unknown>;
  postJson(url: string, body: unknown): Promise<unknown>;
}

/**
 * The venue says it does not know the market (an unknown-symbol answer): thrown by a reader, or by
 * the network under it when the reader's `marketGone` recognises the answer. The backfill marks the
 * market `delisted` with `reason` and asks no more, instead of retrying it.
 */
export class HistoryMarketGone extends Error {
  override readonly name = "HistoryMarketGone";
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** A venue's funding-history endpoint. */
export interface VenueHistoryReader {
  readonly exchange: string;
  readonly limits: VenueHistoryLimits;
  /**
   * The reason when `answer` (the parsed body of any status, 200 included) is the venue's
   * unknown-symbol answer; null otherwise. Optional: without it only 404/410 mean the market is gone.
   */
  marketGone?(answer: unknown, status: number): string | null;
  /**
   * One page of `market`'s settlements in [since, until], continuing from `cursor` (null: the first
   * page). Settlements may come in any order; the caller sorts, deduplicates and stores them.
   */
  readPage(io: HistoryIo, market: HistoryMarket, range: { since: number; until: number }, cursor: string | null): Promise<HistoryPage>;
}
