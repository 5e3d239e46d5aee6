import type { Db } from "@/lib/db";
import type { CarryColumns } from "../carry/carry-columns";
import type { SqlStatement } from "@/lib/db/direct-sql";
import type { OpportunityColumns } from "../opportunities/opportunity-columns";
import type { PairScope, PartialAssets } from "../opportunities/pair-scope";
import type { PatchedSet } from "../opportunities/patched-set";
import type { IntervalChangeRow } from "../model/funding-interval-change";

/** A venue's health as the change events compare it, before and after a round. */
export interface VenueState {
  status: "ok" | "stale";
  lastSuccessAt: Date | null;
  error: string | null;
}

/** A venue's outcome in a round (store-round's VenueRoundResult). */
export interface RoundVenueResult {
  exchange: string;
  status: "ok" | "stale";
  error: string | null;
}

/** Each venue's state after a round: a success starts now; a failure keeps the last success it had. */
export function venueStatesAfter(
  before: ReadonlyMap<string, VenueState>,
  results: readonly RoundVenueResult[],
  startedAt: Date,
): (VenueState & { exchange: string })[] {
  return results.map((v) => ({
    exchange: v.exchange,
    status: v.status,
    error: v.error,
    lastSuccessAt: v.status === "ok" ? startedAt : (before.get(v.exchange)?.lastSuccessAt ?? null),
  }));
}

/** What one round brings to its events. */
export interface RoundEventInput {
  set: OpportunityColumns;
  asOf: Date;
  /** When the round publishes: the served items' `stale` flags are judged then. */
  publishedAt: Date;
  intervalChanges: readonly IntervalChangeRow[];
  venuesBefore: ReadonlyMap<string, VenueState>;
  venuesAfter: readonly (VenueState & { exchange: string })[];
  /** How long the diff of the whole set runs at once before the event loop gets a turn (IngestionRoundOptions.sliceMs). */
  sliceMs?: number;
}

/** What one micro-batch brings to its events: the pairs of `bases` before and after, never the whole set. */
export interface BatchEventInput {
  /** The set the batch is published on: its pairs of `bases` are the ones compared with. */
  previous: PatchedSet;
  bases: ReadonlySet<string>;
  /** Of `bases`, the assets re-ranked in part, with the venues their re-ranked pairs have a leg on (pair-scope.ts). */
  partial?: PartialAssets;
  /** Every pair of `bases` (of `partial`'s assets, those with a leg on its venues), re-ranked, in set order. */
  items: OpportunityColumns;
  /** `previous` with `items` patched in: what the next batch, or round, compares with. */
  set: PatchedSet;
  asOf: Date;
  publishedAt: Date;
}

/** A round's events, ready for its publishing transaction. */
export interface PreparedRoundEvents {
  /** The statements appending them. */
  statements: SqlStatement[];
  /**
   * The same events without those of the pairs in `scope`, which the round keeps as batches
   * published them meanwhile (their events are the batches'), for the round's set as `set`
   * (PatchedSet.carrying).
   */
  rebased(scope: PairScope, set: PatchedSet): PreparedRoundEvents;
  /**
   * To call once the round committed, with the new set's version: answers the round's columns
   * nothing compares with any more (those under the set the round replaced).
   */
  committed(version: number): OpportunityColumns | undefined;
}

/**
 * What a round tells the change-event log. The events layer implements it (LiveRoundEvents) and
 * whoever starts ingestion hands it in, so the market depends on this port, never on lib/events.
 */
export interface RoundEvents {
  /** Each venue's health before a round stores its own: read when the round starts. */
  venueStates(db: Db): Promise<Map<string, VenueState>>;
  /**
   * The round's events, derived against the set batches publish on when it is called (batches may
   * go on patching it meanwhile: `rebased` catches up on them).
   */
  prepare(db: Db, round: RoundEventInput): Promise<PreparedRoundEvents>;
  /**
   * The statements appending a micro-batch's opportunity events (only its assets' pairs), for its
   * publishing transaction, and what to call once it committed: the batch's set is then the one
   * the next round or batch compares with (a round with all of it, `PatchedSet.runsInSlices`).
   */
  prepareBatch(batch: BatchEventInput): { statements: SqlStatement[]; committed: (version: number) => void };
  /**
   * The carry events between the carry set published before and `columns` (the round's new carry
   * set), the statements appending them for the carry set's own transaction, and what to call once
   * it committed with the set's version: the next carry set compares with this one.
   */
  prepareCarry(db: Db, columns: CarryColumns): Promise<{ statements: SqlStatement[]; committed: (version: number) => void }>;
  /** The venue events of a round that published nothing (every venue stale), in their own transaction. */
  appendVenueEvents(db: Db, before: ReadonlyMap<string, VenueState>, results: readonly RoundVenueResult[], startedAt: Date): Promise<void>;
  /** Deletes the events past their retention, with the market data's own retention; answers how many. */
  deleteExpired(db: Db, now: Date): Promise<number>;
}
