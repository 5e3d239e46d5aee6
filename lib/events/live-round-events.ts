import { readEventsConfig } from "@/lib/config/events-config";
import type { Db } from "@/lib/db";
import type { SqlStatement } from "@/lib/db/direct-sql";
import type { CarryColumns } from "@/lib/market/carry/carry-columns";
import { loadCarrySet, loadCarryVersion } from "@/lib/market/carry/carry-store";
import { PatchedSet } from "@/lib/market/opportunities/patched-set";
import { ScratchArrays } from "@/lib/market/opportunities/opportunity-columns";
import { load, loadHead } from "@/lib/market/opportunities/store";
import {
  venueStatesAfter,
  type BatchEventInput,
  type PreparedRoundEvents,
  type RoundEventInput,
  type RoundEvents,
  type RoundVenueResult,
  type VenueState,
} from "@/lib/market/ingest/round-events";
import { replacesPair } from "@/lib/market/opportunities/pair-scope";
import { appendEventStatements, encodedEventLogStatements, encodedEventSlices, eventLogStatements, eventsAppended, type AppendedRange } from "./append-events";
import { carryEvents } from "./carry-events";
import { intervalChangeEvents, opportunityEventsInSlices, opportunityEventsOf, venueHealthEvents } from "./derive-events";
import type { NewEvent } from "./event-data";
import { deleteExpiredEvents } from "./event-retention";
import { runInSlices } from "@/lib/time-slices";

/** The set a round's opportunity events are derived against: the one it replaces. */
interface PublishedSet {
  version: number;
  /** Its items (a round's, with the micro-batches since patched in); null for the bundled sample, which is no baseline to diff against. */
  set: PatchedSet | null;
}

/**
 * The live mode's events, one round at a time, for the process that runs the rounds (a server in
 * embedded mode, `npm run worker` with PostgreSQL): derives them from the round and the set it
 * replaces, hands over the statements that append them in the publish's own transaction, and keeps
 * the published set's columns in memory (typed arrays, a few MB rather than 150k objects: the
 * round's, with each micro-batch since patched in as a layer, merged once the next round compares
 * with it), so the next round reads nothing back (only after a restart, or a round published by
 * another worker, is the set read back, as columns).
 *
 * Opportunity events are only derived between two live sets: the first live set after the bundled
 * sample (or after nothing) is the baseline, or it would "open" every opportunity at once.
 */
export class LiveRoundEvents implements RoundEvents {
  private published: PublishedSet | undefined;
  /** The carry set this process last published, which the next one's events are diffed against. */
  private carry: { version: number; columns: CarryColumns } | undefined;
  /** The round diff's working arrays, kept from round to round (ScratchArrays): rounds are one at a time. */
  private readonly diffArrays = new ScratchArrays();

  constructor(
    /** EVENTS_NET_APR_THRESHOLD. */
    private readonly threshold: number,
    /** When a leg turns stale (three ingestion intervals), for the items' flags. */
    private readonly staleAfterMs: number,
  ) {}

  /** Each venue's health before a round stores its own: read when the round starts. */
  async venueStates(db: Db): Promise<Map<string, VenueState>> {
    const rows = await db.venueHealth.findMany({ select: { id: true, status: true, lastSuccessAt: true, lastError: true } });
    return new Map(rows.map((r) => [r.id, { status: r.status === "ok" ? "ok" : "stale", lastSuccessAt: r.lastSuccessAt, error: r.lastError }]));
  }

  /**
   * The round's events and the statements appending them, for the publishing transaction, and what
   * to call once it committed with the new set's version (which answers the round's columns under
   * the set it replaced: nothing here reads them any more, the batches' layers on them included,
   * and the publisher takes the new round's set before its next batch). Diffed against the set
   * published when called; rounds are one at a time (the round lock), and the assets batches patch
   * into it meanwhile the round keeps as they published them (`rebased`).
   */
  async prepare(db: Db, round: RoundEventInput): Promise<PreparedRoundEvents & { events: NewEvent[] }> {
    const previous = await this.currentSet(db);
    const options = {
      threshold: this.threshold,
      freshness: { at: round.publishedAt.getTime(), staleAfterMs: this.staleAfterMs },
      asOf: round.asOf.toISOString(),
    };
    const opportunities = previous?.set
      ? await opportunityEventsInSlices(await previous.set.runsInSlices(round.sliceMs), round.set, { ...options, previousUnordered: true, take: this.diffArrays.newRun() }, round.sliceMs)
      : [];
    const others = [...venueHealthEvents(round.venuesBefore, round.venuesAfter), ...intervalChangeEvents(round.intervalChanges)];
    // Encoded now, in slices, while the round is stored: its statements are written while it holds the batches.
    const encoded = await runInSlices(encodedEventSlices([...others, ...opportunities]), round.sliceMs);
    /** The round's events of the opportunities at positions `kept` (all of them: null), for the round's set as `set`. */
    const prepared = (kept: readonly number[] | null, set: PatchedSet): PreparedRoundEvents & { events: NewEvent[] } => {
      const ofOpportunities = kept ? kept.map((i) => opportunities[i]!) : opportunities;
      const events = [...others, ...ofOpportunities];
      let range: AppendedRange | undefined;
      return {
        events,
        get statements() {
          const ofKept = kept ? [...encoded.slice(0, others.length), ...kept.map((i) => encoded[others.length + i]!)] : encoded;
          return encodedEventLogStatements("live", ofKept, (appended) => (range = appended));
        },
        rebased: ({ bases, partial }, rebasedSet) =>
          prepared(
            (kept ?? opportunities.map((_, i) => i)).filter((i) => {
              const pair = eventPair(opportunities[i]!);
              return !pair || !replacesPair(bases, partial, pair.symbol, pair.long, pair.short);
            }),
            rebasedSet,
          ),
        committed: (version) => {
          const replaced = this.published?.set?.roundSet;
          this.published = { version, set };
          if (events.length > 0) eventsAppended().notify(range && { mode: "live", events, range });
          return replaced;
        },
      };
    };
    return prepared(null, PatchedSet.of(round.set));
  }

  /**
   * A micro-batch's opportunity events, diffed on its assets' pairs only, against the set it is
   * published on (which this log compares with too, the batch's publisher holding the same one).
   */
  prepareBatch(batch: BatchEventInput): { events: NewEvent[]; statements: SqlStatement[]; committed: (version: number) => void } {
    const events = opportunityEventsOf(batch.previous, batch.bases, batch.items, batch.partial, {
      threshold: this.threshold,
      freshness: { at: batch.publishedAt.getTime(), staleAfterMs: this.staleAfterMs },
      asOf: batch.asOf.toISOString(),
    });
    let range: AppendedRange | undefined;
    return {
      events,
      statements: eventLogStatements("live", events, (appended) => (range = appended)),
      committed: (version) => {
        this.published = { version, set: batch.set };
        if (events.length > 0) eventsAppended().notify(range && { mode: "live", events, range });
      },
    };
  }

  /**
   * The carry events of a round's carry set, diffed against the carry set published before: the
   * one held since this process published it, or the stored one read back (after a restart, or a
   * set another worker published). No events against the bundled sample's set, or before any set:
   * the first live carry set is the baseline, as the first live perp set is.
   */
  async prepareCarry(db: Db, columns: CarryColumns): Promise<{ statements: SqlStatement[]; committed: (version: number) => void }> {
    const storedVersion = await loadCarryVersion(db);
    let previous = this.carry?.version === storedVersion ? this.carry.columns : undefined;
    if (!previous && storedVersion !== null) {
      const stored = await loadCarrySet(db);
      previous = stored && !stored.sample ? stored.columns : undefined;
    }
    const events = previous ? carryEvents(previous, columns, this.threshold) : [];
    let range: AppendedRange | undefined;
    return {
      statements: eventLogStatements("live", events, (appended) => (range = appended)),
      committed: (version) => {
        this.carry = { version, columns };
        if (events.length > 0) eventsAppended().notify(range && { mode: "live", events, range });
      },
    };
  }

  /** The venue events of a round that published nothing (every venue stale), in their own transaction. */
  async appendVenueEvents(db: Db, before: ReadonlyMap<string, VenueState>, results: readonly RoundVenueResult[], startedAt: Date): Promise<void> {
    const events = venueHealthEvents(before, venueStatesAfter(before, results, startedAt));
    if (events.length === 0) return;
    await db.$transaction(appendEventStatements(db, "live", events));
    eventsAppended().notify();
  }

  /** Change events past EVENTS_RETENTION_DAYS go with the market data's retention pass. */
  deleteExpired(db: Db, now: Date): Promise<number> {
    return deleteExpiredEvents(db, now);
  }

  private async currentSet(db: Db): Promise<PublishedSet | null> {
    const stored = await loadHead(db);
    if (!stored) return null;
    if (this.published?.version === stored.version) return this.published;
    if (stored.sample) return { version: stored.version, set: null };
    const set = await load(db);
    return set && { version: set.version, set: set.sample ? null : PatchedSet.of(set.columns) };
  }
}

/** The pair an opportunity event is about: its asset and its legs' venues. */
function eventPair(event: NewEvent): { symbol: string; long: string; short: string } | undefined {
  const pair = event.type === "opportunity.opened" || event.type === "opportunity.updated" ? event.data.opportunity : event.type === "opportunity.closed" ? event.data : undefined;
  return pair && { symbol: pair.symbol, long: pair.long.exchange, short: pair.short.exchange };
}

/** The live event log's writer for rounds every `ingestIntervalMs`; a leg is stale after three intervals, as AppServices judges it. */
export function liveRoundEvents(ingestIntervalMs: number): LiveRoundEvents {
  return new LiveRoundEvents(readEventsConfig().EVENTS_NET_APR_THRESHOLD, 3 * ingestIntervalMs);
}
