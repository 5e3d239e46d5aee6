import { INTERVAL_SOURCES, TRADING_HOURS_VALUES, UNDERLYING_CLASSES, VENUE_ID_PATTERN, type MarketSnapshot } from "../../model/types";

/** A snapshot's fields, each of any value until checked. */
export type SnapshotCandidate = { readonly [K in keyof MarketSnapshot]?: unknown };

const SOURCES: ReadonlySet<unknown> = new Set(INTERVAL_SOURCES);
const CLASSES: ReadonlySet<unknown> = new Set(UNDERLYING_CLASSES);
const HOURS: ReadonlySet<unknown> = new Set(TRADING_HOURS_VALUES);

/**
 * Whether `s` is what marketSnapshotSchema accepts, checked in place. A round checks ~16,000
 * snapshots; the schema's parse builds a copy of each and allocated ~37 MB a round, a good part of
 * the collector's work while the round fetches. valid-snapshot.test.ts holds this to the schema
 * (which stays the shape's one definition) over every field's edge values.
 */
export function isValidSnapshot(s: SnapshotCandidate): s is MarketSnapshot {
  return (
    typeof s.exchange === "string" &&
    VENUE_ID_PATTERN.test(s.exchange) &&
    text(s.market) &&
    text(s.venueMarketId) &&
    text(s.base) &&
    text(s.venueBase) &&
    positive(s.contractMultiplier) &&
    text(s.quote) &&
    text(s.settle) &&
    (s.fundingRate === null || finite(s.fundingRate)) &&
    optionalFinite(s.predictedFundingRate) &&
    optionalFinite(s.rateCap) &&
    optionalFinite(s.rateFloor) &&
    (s.fundingIntervalHours === null || positive(s.fundingIntervalHours)) &&
    (s.fundingIntervalSource === null || SOURCES.has(s.fundingIntervalSource)) &&
    (s.nextFundingAt === null || epochMs(s.nextFundingAt)) &&
    (s.markPrice === null || positive(s.markPrice)) &&
    (s.indexPrice === null || positive(s.indexPrice)) &&
    (s.openInterestUsd === null || nonNegative(s.openInterestUsd)) &&
    (s.volume24hUsd === null || nonNegative(s.volume24hUsd)) &&
    (s.takerFee === null || nonNegative(s.takerFee)) &&
    epochMs(s.observedAt) &&
    (s.intervalChangedAt === undefined || s.intervalChangedAt === null || epochMs(s.intervalChangedAt)) &&
    (s.lastSettlement === undefined || s.lastSettlement === null || settlement(s.lastSettlement)) &&
    (s.underlyingClass === undefined || CLASSES.has(s.underlyingClass)) &&
    (s.tradingHours === undefined || HOURS.has(s.tradingHours))
  );
}

function text(value: unknown): boolean {
  return typeof value === "string" && value.length > 0;
}

/** zod 4's `z.number()`: a number, neither NaN nor infinite. */
function finite(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function optionalFinite(value: unknown): boolean {
  return value === undefined || value === null || finite(value);
}

function positive(value: unknown): boolean {
  return finite(value) && value > 0;
}

function nonNegative(value: unknown): boolean {
  return finite(value) && value >= 0;
}

/** `z.number().int().nonnegative()`: zod 4's integers are the safe ones. */
function epochMs(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function settlement(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const { rate, at } = value as { rate?: unknown; at?: unknown };
  return finite(rate) && epochMs(at);
}
