import type { Db } from "@/lib/db";
import { ColumnParams } from "@/lib/db/array-binary";
import { INTERVAL_CHANGE_RECENT_MS, type MarketSnapshot, type VenueSnapshotResult } from "../model/types";
import type { PreviousObservation } from "./derive-settlements";
import { liveSumsAfter, type LiveSums, type RoundAverageSums } from "./read-market-averages";
import { LAST_SETTLEMENT_LOOKBACK_MS } from "./read-last-settlements";
import { PREVIOUS_WITHIN_MS, type StoredObservation } from "./store-round";

/** What a round reads back of earlier rounds before it ranks, when it has it from memory. */
export interface RecalledRounds {
  /** Each venue's newest stored observations, as previousObservations reads them, without their rounds' starts. */
  previous: readonly PreviousObservation[];
  /** Each market's newest settlement, as readLastSettlements reads it. */
  settlements: ReadonlyMap<string, { rate: number; at: number }>;
  /** Each market's last interval change, as readRecentIntervalChanges reads it. */
  intervalChanges: ReadonlyMap<string, number>;
  /** The last two hours' average sums as the database holds them, when the remembered round was folded and nothing else since (`folded`). */
  liveSums?: LiveSums;
}

/** What one round leaves behind once stored: everything the next round would read back of it. */
export interface StoredRound {
  roundId: string;
  startedAt: Date;
  results: readonly VenueSnapshotResult[];
  /** The observations the round compared with: those `recall` answered, or rows read back, each with its round's start. */
  previous: readonly PreviousObservation[] | readonly StoredObservation[];
  /** The markets' newest settlements and interval changes, the round's own findings included. */
  settlements: ReadonlyMap<string, { rate: number; at: number }>;
  intervalChanges: ReadonlyMap<string, number>;
}

/** A venue's observations in the last round in which it answered, and that round's start. */
interface VenueObservations {
  roundStartedAt: number;
  rows: readonly PreviousObservation[];
}

interface Remembered {
  roundId: string;
  observations: ReadonlyMap<string, VenueObservations>;
  settlements: ReadonlyMap<string, { rate: number; at: number }>;
  intervalChanges: ReadonlyMap<string, number>;
}

/**
 * What the rounds this process stored leave for the next one, so it need not read back ~50,000
 * rows it wrote itself (a round's observations, and each market's last settlement and interval
 * change) while it fetches, since parsing them holds the round's ranking back. Only rounds write those tables, so the memory is exact while the newest stored round
 * is the one it remembers; when another process's round, or a round that failed before storing,
 * came between, the next round reads the database as without it, and is remembered in turn.
 */
export class RoundMemory {
  private remembered: Remembered | undefined;
  /** What `recall` last answered, and the venues it came from: a round comparing with it is remembered from those. */
  private recalled: { previous: readonly PreviousObservation[]; observations: ReadonlyMap<string, VenueObservations> } | undefined;
  /** The live hours' average sums after the remembered round's fold, and that round. */
  private liveSums: { roundId: string; sums: LiveSums } | undefined;
  /** The last stored round's columns as the statement wrote them, for the next round's statement to reuse where unchanged. */
  readonly keptColumns = new ColumnParams();

  /** The earlier rounds as the database holds them for a round begun at `startedAt`, or undefined when they must be read. */
  async recall(db: Db, roundId: string, startedAt: Date): Promise<RecalledRounds | undefined> {
    const remembered = this.remembered;
    if (!remembered) return undefined;
    const newest = await db.ingestionRound.findFirst({
      where: { id: { not: roundId } },
      orderBy: { startedAt: "desc" },
      select: { id: true },
    });
    if (newest?.id !== remembered.roundId) {
      this.remembered = undefined;
      return undefined;
    }
    const at = startedAt.getTime();
    const previous: PreviousObservation[] = [];
    for (const venue of remembered.observations.values()) {
      if (venue.roundStartedAt >= at - PREVIOUS_WITHIN_MS) for (const row of venue.rows) previous.push(row);
    }
    this.recalled = { previous, observations: remembered.observations };
    const settlements = within(remembered.settlements, (last) => last.at > at - LAST_SETTLEMENT_LOOKBACK_MS && last.at <= at);
    const intervalChanges = within(remembered.intervalChanges, (changedAt) => changedAt >= at - INTERVAL_CHANGE_RECENT_MS);
    const liveSums = this.liveSums?.roundId === remembered.roundId ? this.liveSums.sums : undefined;
    return { previous, settlements, intervalChanges, ...(liveSums && { liveSums }) };
  }

  /**
   * Called once the remembered round `roundId` is folded into the hourly history (aggregateRound),
   * when no other round was folded since its history was read (retention folded none): the live
   * hours' sums that round read (`averages`) with its stored snapshots (`observed`) added are then
   * exactly what the database holds, and the next round of the hour takes them
   * (readRoundAverageSums). A round whose fold failed, or after which retention folded another,
   * leaves the next to read them.
   */
  folded(roundId: string, averages: RoundAverageSums, observed: readonly MarketSnapshot[]): void {
    if (this.remembered?.roundId !== roundId) return;
    this.liveSums = { roundId, sums: liveSumsAfter(averages, observed) };
  }

  /**
   * Called once `round` is stored: its venues that answered replace their observations, the others
   * keep theirs. A venue's observations are its snapshots themselves: copying a round's 26,000 into
   * observations of their own cost the round's thread ~15 ms.
   */
  remember(round: StoredRound): void {
    const recalled = this.recalled;
    this.recalled = undefined;
    const observations = recalled && round.previous === recalled.previous ? new Map(recalled.observations) : byVenue(round.previous);
    const roundStartedAt = round.startedAt.getTime();
    for (const result of round.results) {
      if (result.status !== "ok" || result.snapshots.length === 0) continue;
      observations.set(result.exchange, { roundStartedAt, rows: result.snapshots });
    }
    this.remembered = { roundId: round.roundId, observations, settlements: round.settlements, intervalChanges: round.intervalChanges };
  }

  /** Forgets everything: the next round reads the database. */
  forget(): void {
    this.remembered = undefined;
    this.recalled = undefined;
    this.liveSums = undefined;
  }
}

/**
 * `map`'s entries that `keep` keeps: `map` itself when it keeps them all, as from one round to the
 * next it nearly always does. Copying 26,000 settlements and 5,000 interval changes every round
 * cost the round's thread 20–40 ms at 46 venues, most of it the collections of those copies.
 * Nothing changes a recalled map: a round adds its findings to copies (withRoundFindings).
 */
function within<V>(map: ReadonlyMap<string, V>, keep: (value: V) => boolean): ReadonlyMap<string, V> {
  let all = true;
  for (const value of map.values()) {
    if (!keep(value)) {
      all = false;
      break;
    }
  }
  if (all) return map;
  const kept = new Map<string, V>();
  for (const [key, value] of map) if (keep(value)) kept.set(key, value);
  return kept;
}

/** Rows read back (previousObservations), by venue: each venue's come from one round, whose start they carry. */
function byVenue(rows: readonly (PreviousObservation | StoredObservation)[]): Map<string, VenueObservations> {
  const venues = new Map<string, { roundStartedAt: number; rows: PreviousObservation[] }>();
  for (const row of rows) {
    if (!("roundStartedAt" in row)) throw new Error(`${row.exchange}'s observation was neither read back nor recalled: it has no round start`);
    const venue = venues.get(row.exchange);
    if (venue) venue.rows.push(row);
    else venues.set(row.exchange, { roundStartedAt: row.roundStartedAt, rows: [row] });
  }
  return venues;
}
