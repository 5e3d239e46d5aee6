import type { MarketDepth } from "./books/market-depth";
import type { FundingIntervalChange } from "./model/funding-interval-change";
import type { FundingSettlement } from "./model/funding-settlement";
import type { IngestionStatus } from "./model/venue-status";
import type { OpportunitySnapshot } from "./opportunities/opportunity-query";
import type { CarrySnapshot } from "./carry/carry-query";
import type { MarketRef } from "./model/market-ref";

export type { MarketRef };

/** What accruing a position needs of one of its legs: the leg, and its settlements since `from`. */
export interface LegHistoryRequest {
  symbol: string;
  leg: MarketRef;
  from: Date;
}

/** A leg's taker fee now (null when unknown) and its settlements in [from, to], oldest first. */
export interface LegHistory {
  takerFee: number | null;
  settlements: FundingSettlement[];
}

/** One asset's settlements on one venue over a range, a page of them. */
export interface SettlementWindow {
  exchange: string;
  symbol: string;
  from: Date;
  to: Date;
  limit: number;
  offset: number;
}

/** One stored settlement reduced to what coverage reads: its market, time (epoch ms), interval and source. */
export interface SettlementMark {
  market: string;
  time: number;
  intervalHours: number | null;
  source: string;
}

/** One stored hourly borrow rate of an asset on a spot venue: what borrowing it cost in the hour starting at `time`. */
export interface HourlyBorrowRate {
  /** The hour's start, epoch ms. */
  time: number;
  /** Percent a year, simple (BorrowRate.aprPct). */
  aprPct: number;
}

/** Funding interval changes over a range, optionally of one venue and/or one asset, a page of them. */
export interface IntervalChangeWindow {
  exchange?: string;
  symbol?: string;
  from: Date;
  to: Date;
  limit: number;
  offset: number;
}

/**
 * Everything domain code reads about the market, for one key mode. Live keys read what ingestion
 * stored (lib/market/ingest/live-market.ts) and the venues' books; test keys read the deterministic
 * sandbox (lib/market/sandbox/sandbox-market.ts), never live data. The mode is chosen once, where a
 * request's actor is known (`AppServices.market(mode)`), and nothing below asks which mode it is in.
 * Order books and margin tiers (`MarketDepth`) are what quotes read.
 */
export interface Market extends MarketDepth {
  /**
   * How old this market's data may be before it is stale: three of its ingestion intervals. Venues
   * (`status()`) and opportunity legs (lib/market/model/leg-freshness.ts) older than this are flagged.
   */
  venueStaleAfterMs: number;
  /** The opportunity set served now. */
  opportunities(): Promise<OpportunitySnapshot>;
  /** The carry set served now (spot against perpetual); empty, of no moment, before one is published. */
  carryOpportunities(): Promise<CarrySnapshot>;
  /** One leg's settlements in [from, to], oldest first. */
  settlements(symbol: string, leg: MarketRef, from: Date, to: Date): Promise<FundingSettlement[]>;
  /** One asset's settlements on one venue in [from, to], oldest first (by market within a time), paged. */
  settlementPage(window: SettlementWindow): Promise<{ items: FundingSettlement[]; total: number }>;
  /** Every settlement of one asset on one venue, all markets and all time, by market then time: what coverage is computed from. */
  settlementMarks(exchange: string, symbol: string): Promise<SettlementMark[]>;
  /**
   * A spot venue's hourly borrow rates of an asset for the hours starting in [from, to), oldest
   * first; an hour not observed is absent. No venue serves margin borrow history without a key, so
   * it reaches back only as far as this service has been storing them.
   */
  borrowRates(exchange: string, asset: string, from: Date, to: Date): Promise<HourlyBorrowRate[]>;
  /** Changes of funding interval that took effect in [from, to], oldest first, paged. */
  intervalChanges(window: IntervalChangeWindow): Promise<{ items: FundingIntervalChange[]; total: number }>;
  /** The venue's stated taker fee for the market at `now`, as a decimal; null when unknown. */
  takerFee(leg: MarketRef, now: Date): Promise<number | null>;
  /**
   * `takerFee` and `settlements` of many legs at once, in answer order: a portfolio of n positions
   * costs a fixed number of queries instead of four per position, which under load would hold every
   * connection of the pool for one request.
   */
  legHistories(requests: readonly LegHistoryRequest[], to: Date): Promise<LegHistory[]>;
  /** Each venue's health and the latest round's progress. */
  status(): Promise<IngestionStatus>;
}
