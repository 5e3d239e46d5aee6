import type { Db } from "@/lib/db";
import { directSql } from "@/lib/db/direct-sql";
import { logger } from "@/lib/observability/logger";
import { runInSlices, type Sliced } from "@/lib/time-slices";
import type { PairPersistenceStore } from "../persistence/pair-persistence-store";
import type { ColumnSlabs, OpportunityColumns } from "../opportunities/opportunity-columns";
import type { RowWriter } from "../opportunities/rank-opportunities";
import { PatchedSet } from "../opportunities/patched-set";
import type { PairScope } from "../opportunities/pair-scope";
import { spliceColumnSlices } from "../opportunities/splice-opportunities";
import type { AppliedRound } from "../opportunities/live-opportunities";
import { pack, publish } from "../opportunities/store";
import { VENUE_IDS, type MarketSnapshot, type VenueId, type VenueSnapshotResult } from "../model/types";
import { aggregateRound, closeAbandonedRounds } from "./aggregate-rounds";
import { applyRetention, type RetentionPolicy } from "./apply-retention";
import { deriveSettlements } from "./derive-settlements";
import { detectIntervalChanges } from "./detect-interval-changes";
import { readMarketHistory, rankWithHistoryInSlices, withRoundFindings, type MarketHistory } from "./market-history";
import type { RoundBatches } from "./micro-batch-publisher";
import type { RoundMemory } from "./round-memory";
import { answeredSnapshots, fetchAllVenues, type VenueFetcher } from "../venues/fetch-all-venues";
import { ProgressWriter } from "./progress-writer";
import { recordPairingExclusions } from "./pairing-exclusions-store";
import { venueStatesAfter, type RoundEvents } from "./round-events";
import { removeSampleHistory } from "./store-sample-history";
import { finishSpotRound, type SpotFetcher, type SpotLegsListener } from "./spot-round";
import type { spotVenueSummary } from "./borrow-rate-store";
import { previousObservations, roundProgress, roundStatement, roundVenues, storeRound, venueRoundResult, type VenueRoundResult } from "./store-round";

export interface IngestionRoundOptions {
  db: Db;
  fetcher: VenueFetcher;
  timeoutMs: number;
  retention: RetentionPolicy;
  venues?: readonly VenueId[];
  now?: () => number;
  /** Replaces the publishing step; tests use it to break a round between storing and publishing. */
  publish?: typeof publish;
  /**
   * Called with the new set once committed: this process's in-memory set takes it (LiveOpportunities,
   * building its items in slices). The round ends only once what it answers has settled, as the
   * set's memory may be reused from the next round on.
   */
  onPublished?: (round: AppliedRound) => void | Promise<void>;
  /**
   * Told every venue's answer once the round has published: the live feeds take the round's
   * snapshots as the base their messages change, and subscribe to its markets.
   */
  onRound?: (results: readonly VenueSnapshotResult[]) => void;
  /** Told how long each step of the round took (fetch, compare, history, rank, store, publish, fold); bench:market prints them. */
  onStep?: (step: RoundStep, ms: number) => void;
  /**
   * The pair persistence this process attaches; once a round has published, it is refreshed in the
   * background when an hour has completed. Without one, every opportunity's persistence is unknown.
   */
  persistence?: PairPersistenceStore;
  /**
   * Derives the round's change events and appends them in the publishing transaction. Without it
   * the round writes none (tests of other steps).
   */
  events?: RoundEvents;
  /**
   * What this process's earlier rounds stored, kept so the next round need not read it back
   * (RoundMemory). Without it, every round reads the database.
   */
  memory?: RoundMemory;
  /**
   * Memory for the ranked set's columns, kept by the process: each round's set gives its memory
   * back once no longer read (the next set replaced it as the one its events compare with).
   */
  slabs?: ColumnSlabs;
  /**
   * The micro-batch publisher of the live feeds (MicroBatchPublisher): held back from the ranking
   * to the commit, the ranking takes its newer pushed legs, and it is handed the published set.
   */
  batches?: RoundBatches;
  /**
   * How long the round's largest steps (ranking the whole set, deriving its events) run at once
   * before the event loop gets a turn; unset, DEFAULT_SLICE_MS. Tests set 0 (a turn at every
   * pause point) to see that they pause.
   */
  sliceMs?: number;
  /**
   * PAIR_PRICE_BOUND: legs whose price strays from their asset's by more are paired with none, in
   * the round and in the batches ranked on its history, and listed on the round (pairing-exclusions-store.ts).
   * Unset, no leg is held to a price (tests replaying recordings of different days).
   */
  priceBound?: number;
  /**
   * The spot venues' fetch (INGEST_SPOT), under the same timeout: started once the perp set is
   * published, so the spot venues never hold the set back. Unset, the round fetches no spot venue.
   */
  spotFetcher?: SpotFetcher;
  /** Told the round's spot legs (of the venues that answered) with its perp legs, after the perp set is published. */
  onSpotLegs?: SpotLegsListener;
  /**
   * Ranks the round's markets on another thread (VenueThread.ranker), this one going on meanwhile.
   * Unset, or when it fails, the round ranks here, in slices.
   */
  ranker?: (snapshots: readonly MarketSnapshot[], history: MarketHistory) => Promise<OpportunityColumns>;
  /**
   * Writes the second half of the ranking's rows on another thread (VenueThread.rowWriter) while
   * this one writes the first, when `slabs` are shared; this thread blocks for it once done with
   * its own half (a few milliseconds), so only a thread that serves nothing meanwhile is given one.
   */
  rowWriter?: RowWriter;
  /**
   * Reloads the venues' market lists the round's refreshes found MARKETS_TTL_MS old
   * (reloadDueMarketLists, on each thread that fetched): called last, once the round has published
   * and folded, so the reloads take the time between rounds. Unset, a list is reloaded inside a
   * refresh once twice that old.
   */
  reloadMarketLists?: () => Promise<unknown>;
}

/** The round's set: ranked by `options.ranker`, or on this thread in slices when there is none or it fails. */
async function rankRound(ranking: readonly MarketSnapshot[], history: MarketHistory, options: IngestionRoundOptions): Promise<OpportunityColumns> {
  if (options.ranker) {
    try {
      return await options.ranker(ranking, history);
    } catch (error) {
      logger("ingest").error({ err: error }, "ranking the round on the venue thread failed; ranking it here");
    }
  }
  return rankWithHistoryInSlices(ranking, history, options.slabs, options.sliceMs, options.rowWriter);
}

/**
 * The round's steps in order. `history` and `store` are what is left to wait for of work that ran
 * beside the steps before them: the history read beside the fetch, storing beside the ranking.
 * `fold` comes after publishing: folding the observations into the hourly history.
 */
export type RoundStep = "fetch" | "compare" | "history" | "rank" | "store" | "publish" | "fold";

export interface RoundOutcome {
  roundId: string;
  status: "published" | "failed";
  venues: VenueRoundResult[];
  opportunities: number;
  settlements: number;
  error?: string;
  /** Each spot venue's answer, when the round fetched them and published (null: the spot fetch failed). */
  spotVenues?: ReturnType<typeof spotVenueSummary> | null;
}

/**
 * One ingestion round: fetch every venue in parallel (each under its deadline), store what came
 * back with the settlements it reveals, rank the opportunities of the venues that answered (with
 * the stored history, read while fetching, and this round's own findings), replace the live set in
 * one transaction, and then fold the observations into the hourly history. A round that fails or is
 * killed before that transaction leaves the previous set exactly as it was; one killed before its
 * fold leaves it to the next retention pass (aggregatePendingRounds), so no observation is lost.
 */
export async function runIngestionRound(options: IngestionRoundOptions): Promise<RoundOutcome> {
  const { db } = options;
  const now = options.now ?? Date.now;
  const venues = options.venues ?? VENUE_IDS;
  const startedAt = new Date(now());
  await closeAbandonedRounds(db, startedAt);
  const round = await db.ingestionRound.create({ data: { startedAt, status: "running" } });
  const progress: VenueRoundResult[] = [];
  let stepStarted = performance.now();
  const step = (name: RoundStep) => {
    const ended = performance.now();
    options.onStep?.(name, ended - stepStarted);
    stepStarted = ended;
  };
  const progressWriter = new ProgressWriter<VenueRoundResult[]>(
    (venues) => directSql(db).query(roundProgress(round.id, venues)),
    (error) => logger("ingest").error({ err: error, roundId: round.id }, "recording round progress failed"),
  );
  // The round's writes, once started: a failure elsewhere waits for them before the round ends.
  let stored: Promise<void> | undefined;
  let holding = false;
  try {
    const recalled = await options.memory?.recall(db, round.id, startedAt);
    const previous = recalled ? Promise.resolve(recalled.previous) : previousObservations(db, venues, { excludeRoundId: round.id, now: startedAt });
    // Before this round stores its own health: what venue.stale / venue.recovered compare with.
    const venuesBefore = options.events?.venueStates(db);
    venuesBefore?.catch(() => undefined); // awaited below (preparing, or the stale branch): its failure is the round's
    // Stored history is about earlier rounds, so the database reads it while this process fetches
    // and parses; this round's own findings are added in memory below.
    const historyRead = readMarketHistory(db, startedAt, startedAt, options.persistence, recalled);
    // Awaited below; marked handled so a failure surfaces there, as the round's error, and only there.
    historyRead.catch(() => undefined);
    const results = await fetchAllVenues(options.fetcher, {
      timeoutMs: options.timeoutMs,
      venues,
      now,
      onVenue: (result) => {
        progress.push(venueRoundResult(result, startedAt.getTime(), now()));
        progressWriter.push([...progress]);
      },
    });
    // A progress write still in flight changes nothing once storeRound has written every venue's
    // final word (roundProgress), so storing does not wait for it.
    const progressWritten = progressWriter.close();
    step("fetch");
    const venueResults = results.map((r) => progress.find((p) => p.exchange === r.exchange) ?? venueRoundResult(r, startedAt.getTime(), now()));
    const fresh = answeredSnapshots(results);
    const seenBefore = await previous;
    const settlements = deriveSettlements(seenBefore, fresh);
    const intervalChanges = detectIntervalChanges(seenBefore, fresh);
    step("compare");
    // Storing is the database's work and ranking this process's: they need nothing of each other,
    // so they run at once. Nothing is published before the round is stored whole.
    // Its statement written out in slices first, so the database has it before the ranking starts.
    const statement = await roundStatement(round.id, fresh, venueResults, { settlements, intervalChanges }, startedAt, options.sliceMs, options.memory?.keptColumns);
    // The statement stores this round's venue health too: issued before the health the round
    // compares with has been read (venuesBefore, asked for at its start), a loaded database could
    // answer that read with this round's health, and venue.stale / venue.recovered go unsaid. The
    // read's failure is the round's, found where it is awaited; storing goes ahead regardless.
    stored = Promise.resolve(venuesBefore)
      .catch(() => undefined)
      .then(() => storeRound(db, statement, { settlements, intervalChanges }));
    stored.catch(() => undefined); // awaited below, or by the catch at the end: its failure is the round's
    // The driver hands the statement to the socket once this thread has a moment (node-postgres
    // takes its connection on the next tick): a turn of the event loop before the ranking's first
    // slice, so the database stores meanwhile.
    await new Promise((resolve) => setImmediate(resolve));

    if (fresh.length === 0) {
      await stored;
      await progressWritten;
      options.memory?.forget();
      await aggregateRound(db, round.id);
      // No set is published, but every venue that was ok has gone stale: that is news all the same.
      const before = await venuesBefore;
      if (before) await options.events?.appendVenueEvents(db, before, venueResults, startedAt);
      return await finish(db, round.id, venueResults, settlements.length, "every venue is stale; the previous opportunity set stays");
    }
    // What the stored history adds to this round's observations: each market's last interval change
    // and last settlement for the legs, its mean APRs and each pair's persistence for the opportunities.
    const history = { ...withRoundFindings(await historyRead, settlements, intervalChanges), priceBound: options.priceBound };
    step("history");
    // Ranked with the newest pushed legs while micro-batches go on publishing.
    const batches = options.batches;
    let ranking = batches ? await runInSlices(newestSlices(batches, fresh), options.sliceMs) : fresh;
    // Elsewhere, or here in slices, the event loop turning between them: this thread serves
    // requests and streams and publishes micro-batches, which a few hundred milliseconds of ranking
    // at once would hold back.
    let ranked = await rankRound(ranking, history, options);
    // What batches published while it ranked is merged in (those assets re-ranked, in slices too).
    const caughtUpOn = batches?.version;
    if (batches) ({ ranking, ranked } = await catchUp(batches.caughtUp(ranking), ranked, history, options.slabs, options.sliceMs));
    step("rank");
    // Compressed on libuv's threads while this one derives the events and the round is stored.
    const packing = pack(ranked);
    packing.catch(() => undefined); // awaited when publishing; a round failing before then reports its own error
    // The change events are derived while the round is still being stored (a pass over both sets),
    // against the set batches publish on, which they go on patching meanwhile.
    const asOf = dataAsOf(results, startedAt);
    const preparing = venuesBefore?.then((before) =>
      options.events?.prepare(db, {
        set: ranked,
        asOf,
        publishedAt: new Date(now()),
        intervalChanges,
        venuesBefore: before,
        venuesAfter: venueStatesAfter(before, venueResults, startedAt),
        sliceMs: options.sliceMs,
      }),
    );
    preparing?.catch(() => undefined); // awaited before publishing; a round failing before then reports its own error
    await stored;
    await progressWritten;
    options.memory?.remember({ roundId: round.id, startedAt, results, previous: seenBefore, ...history });
    step("store");
    let events = await preparing;
    const packed = await packing;
    // From here to the commit no batch publishes: the hold costs the batch in flight and the
    // commit. The assets batches patched since the catch-up (while the events were derived) keep
    // the pairs they published, stored as they were (their patches kept, after the round's set),
    // their events the batches'; the publisher re-ranks them with the round's markets and history
    // with their next news or at their refresh turn. Re-ranking them here instead held every
    // change back for as long as a batch as wide as all of them takes.
    holding = batches !== undefined;
    let published: PatchedSet | undefined;
    let carried: ReadonlySet<string> = new Set();
    let patched: PairScope | undefined;
    const rankedFrom = ranking;
    if (batches) {
      await batches.hold();
      ranking = batches.caughtUp(ranking).ranking;
      patched = batches.patchedSince(caughtUpOn);
      published = batches.carrying(ranked, patched);
      carried = published.patchedAssets;
      events = events?.rebased(patched, published);
    }
    const publishedAt = new Date(now());
    const version = await (options.publish ?? publish)(
      db,
      packed,
      { asOf, sample: false },
      [
        {
          text: `UPDATE "IngestionRound" SET status = 'published', "finishedAt" = $1::timestamp(3), opportunities = $2 WHERE id = $3`,
          values: [publishedAt.toISOString(), ranked.count, round.id],
        },
        ...(events?.statements ?? []),
      ],
      carried.size > 0 ? caughtUpOn : undefined,
    );
    // The columns nothing reads any more: the round's under the replaced set (the micro-batches'
    // layers on them go with it: the publisher takes this round's set below, before any batch).
    // The served set reads them until this round's replaces it (`applied`, awaited before this
    // round ends and so before the next takes a slab). Without events, nothing goes back: this
    // round's set is served as it is.
    const unread = events?.committed(version);
    if (unread) options.slabs?.giveBack(unread);
    holding = false;
    batches?.roundPublished({ version, set: published ?? ranked, ...(patched && { carried: patched, rankedFrom }), snapshots: ranking, history, asOf });
    step("publish");
    // This process's in-memory set: the round's, with the carried assets' pairs (gathered in slices
    // while batches go on) spliced in, served from these columns until the next round's replaces
    // it. `ranked`'s slab goes back at the next round's commit and is written again only by the
    // ranking of the round after, which starts once the next round's set is served (`applied`);
    // the carried pairs are new memory or batches' columns, never a slab's (PatchedSet.carrying
    // copies the runs it carries of the previous round's columns).
    const servedCarried = options.onPublished && published && carried.size > 0 ? { bases: carried, pairs: published.rowsOfInSlices(carried, options.sliceMs) } : undefined;
    servedCarried?.pairs.catch(() => undefined); // awaited by onPublished once the round's items are built: its failure is that of `applied`
    const applied = Promise.resolve(options.onPublished?.({ version, set: ranked, ...(servedCarried && { carried: servedCarried }), asOf })).catch((error: unknown) =>
      logger("ingest").error({ err: error, roundId: round.id }, "the in-memory set taking the round's set failed"),
    );
    options.onRound?.(results);
    // The spot venues only now: their legs are wanted for the carry set alone, ranked after the
    // perp set. On two cores their fetching and parsing took a core from the perp set's: beside the
    // perp venues it held the venue thread's half of them back, and beside the ranking the ranking
    // (~100 ms a round each, bench:market).
    const spotFinished = options.spotFetcher && finishSpotRound(db, round.id, options.spotFetcher({ timeoutMs: options.timeoutMs }), ranking, startedAt, options.onSpotLegs, history);
    const exclusionsRecorded = options.priceBound === undefined ? undefined : recordPairingExclusions(db, round.id, ranking, options.priceBound);
    // After publishing, not before: the round's own observations are already in its averages, and
    // the hourly history only has to hold them by the next round, which reads it.
    const folded = await aggregateRound(db, round.id).then(
      () => true,
      (error: unknown) => {
        logger("ingest").error({ err: error, roundId: round.id }, `folding round ${round.id} into the hourly history failed; retention folds it later`);
        return false;
      },
    );
    step("fold");
    // Real data of these venues is stored: the offline sample's recorded rows of theirs go.
    await removeSampleHistory(
      db,
      results.filter((r) => r.status === "ok").map((r) => r.exchange),
    ).catch((error: unknown) => logger("ingest").error({ err: error, roundId: round.id }, "removing the offline sample's history failed"));
    // Not awaited: computing an hour's persistence takes seconds at scale; the next rounds attach it.
    options.persistence?.refresh(new Date(now())).catch((error: unknown) => logger("ingest").error({ err: error, roundId: round.id }, "computing pair persistence failed"));
    const retained = await applyRetention(db, options.retention, new Date(now()), options.events).catch((error: unknown) => {
      logger("ingest").error({ err: error, roundId: round.id }, "market data retention failed");
      return undefined;
    });
    // Only this round's fold changed the hours the next round reads its live averages from.
    if (folded && retained?.aggregatedRounds === 0) options.memory?.folded(round.id, history.averages, fresh);
    await applied;
    await exclusionsRecorded;
    const spotVenues = spotFinished && (await spotFinished);
    await options.reloadMarketLists?.().catch((error: unknown) => logger("ingest").error({ err: error, roundId: round.id }, "reloading the venues' market lists failed"));
    return {
      roundId: round.id,
      status: "published",
      venues: venueResults,
      opportunities: ranked.count,
      settlements: settlements.length,
      ...(spotVenues !== undefined && { spotVenues }),
    };
  } catch (error) {
    if (holding) options.batches?.release();
    await progressWriter.close();
    // Storing's own failure, when it is not the one that ended the round, is logged beside it.
    await stored?.catch((storing: unknown) => {
      if (storing !== error) logger("ingest").error({ err: storing, roundId: round.id }, `storing round ${round.id} failed`);
    });
    const message = error instanceof Error ? error.message : String(error);
    logger("ingest").error({ err: error, roundId: round.id }, `ingestion round ${round.id} failed`);
    // The venues as last known: progress still waiting to be written when the round ended was dropped.
    await directSql(db).query(roundVenues(round.id, progress));
    return finish(db, round.id, progress, 0, message.slice(0, 500));
  }
}

/**
 * `ranked` with `caught.bases` re-ranked from `caught.ranking`, in slices, and spliced in; the
 * columns it replaced go back to the slabs.
 */
async function catchUp(
  caught: { ranking: MarketSnapshot[]; bases: Set<string> },
  ranked: OpportunityColumns,
  history: MarketHistory,
  slabs: ColumnSlabs | undefined,
  sliceMs: number | undefined,
): Promise<{ ranking: MarketSnapshot[]; ranked: OpportunityColumns }> {
  const { ranking, bases } = caught;
  if (bases.size === 0) return { ranking, ranked };
  const items = await rankWithHistoryInSlices(
    ranking.filter((snapshot) => bases.has(snapshot.base)),
    history,
    undefined,
    sliceMs,
  );
  // In slices too: the whole set is copied around the caught-up assets' pairs.
  const spliced = await runInSlices(spliceColumnSlices(ranked, bases, items), sliceMs);
  if (spliced !== ranked) slabs?.giveBack(ranked);
  return { ranking, ranked: spliced };
}

/** Markets a slice of `newestSlices`. */
const NEWEST_A_SLICE = 4_096;

/** `batches.newest(fresh)` a slice of markets at a time: at 46 venues, 26,000 lookups held the serving thread for a tenth of a second. */
function* newestSlices(batches: RoundBatches, fresh: readonly MarketSnapshot[]): Sliced<MarketSnapshot[]> {
  const newest: MarketSnapshot[] = [];
  for (let from = 0; from < fresh.length; from += NEWEST_A_SLICE) {
    for (const snapshot of batches.newest(fresh.slice(from, from + NEWEST_A_SLICE))) newest.push(snapshot);
    yield;
  }
  return newest;
}

async function finish(db: Db, roundId: string, venues: VenueRoundResult[], settlements: number, error: string): Promise<RoundOutcome> {
  await db.ingestionRound.update({ where: { id: roundId }, data: { status: "failed", finishedAt: new Date(), error } });
  return { roundId, status: "failed", venues, opportunities: 0, settlements, error };
}

/**
 * The oldest fresh venue's fetch time: every published number was observed at or after it.
 * Venue payload times are not used because replayed payloads carry their recording dates.
 */
function dataAsOf(results: readonly VenueSnapshotResult[], fallback: Date): Date {
  const fetched = results.filter((r) => r.status === "ok").map((r) => r.fetchedAt);
  return fetched.length ? new Date(Math.min(...fetched)) : fallback;
}
