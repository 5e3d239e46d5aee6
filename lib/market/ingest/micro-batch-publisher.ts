import type { Db } from "@/lib/db";
import { logger } from "@/lib/observability/logger";
import { marketKey } from "../model/market-average";
import type { MarketSnapshot, VenueId } from "../model/types";
import { strayPriceLegs } from "../opportunities/rank-opportunities";
import type { OpportunityColumns } from "../opportunities/opportunity-columns";
import type { PairScope, PartialAssets } from "../opportunities/pair-scope";
import { PatchedSet } from "../opportunities/patched-set";
import { encodeColumns } from "../opportunities/encoding/set-bytes";
import { publishBatch } from "../opportunities/store";
import type { FeedStatusRecorder } from "./feed-status";
import { DEFAULT_PRICE_CONFLATION } from "./ingest-config";
import type { LegUpdateSink } from "./leg-updates";
import { rankWithHistory, type MarketHistory } from "./market-history";
import { STREAM_FIELDS, VALUE_FIELDS } from "./merge-stream-update";
import { changeIsNews, PRICE_FIELDS, refreshPhase, refreshTurnCame } from "./price-news";
import type { RoundEvents } from "./round-events";

const log = logger("ingest");

/** What a round hands the publisher once its set is committed: the base every batch until the next round changes. */
export interface PublishedRound {
  version: number;
  /**
   * The round's ranked set, as published: with the pairs of the assets batches patched during its
   * last moments as those batches published them (`carrying`), which are re-ranked with the round's
   * markets and history with their next news or at their refresh turn.
   */
  set: OpportunityColumns | PatchedSet;
  /** Which of `set`'s pairs batches published (`carrying`'s scope); none when it carries none. */
  carried?: PairScope;
  /**
   * The markets the round's own pairs were ranked from, when the hold took newer legs of batches
   * into `snapshots`: of an asset carried in part, the round's pairs off the carried venues are of
   * these, so where the price bound judges them otherwise the asset is re-ranked whole.
   */
  rankedFrom?: readonly MarketSnapshot[];
  /** The markets it was ranked from (the round's, with any pushed leg newer than the round's answer). */
  snapshots: readonly MarketSnapshot[];
  /** The history it was ranked with: hourly figures, which stand until the next round. */
  history: MarketHistory;
  asOf: Date;
}

/**
 * What a round does for the micro-batches (run-ingestion-round.ts): ranks with the newest pushed
 * legs, catches up on what batches published while it ranked (those assets re-ranked), derives its
 * events while they go on publishing, holds them back only for its commit, keeping the pairs of
 * the assets they patched meanwhile as published (their events are the batches'), and hands over its set.
 */
export interface RoundBatches {
  /** No batch starts until `roundPublished` or `release`; resolves once the batch in flight, if any, has committed. */
  hold(): Promise<void>;
  /** `fresh` with each market's pushed snapshot in place where it is newer than the round's: nothing pushed is lost to a round. */
  newest(fresh: readonly MarketSnapshot[]): MarketSnapshot[];
  /** The version of the set batches are published on; undefined until this process's first round. */
  readonly version: number | undefined;
  /**
   * The pairs batches replaced in the set after `version`: their assets, those only ever
   * re-ranked in part with their venues (none when there was no set: no batch publishes without one).
   */
  patchedSince(version: number | undefined): PairScope;
  /**
   * `ranking` with each market's published leg in place where newer, and the assets to re-rank:
   * those whose legs were replaced, and `also`. The round re-ranks them and splices them in.
   */
  caughtUp(ranking: readonly MarketSnapshot[], also?: ReadonlySet<string>): { ranking: MarketSnapshot[]; bases: Set<string> };
  /** The round's `set` with the pairs in `scope` as batches published them (PatchedSet.carrying). */
  carrying(set: OpportunityColumns, scope: PairScope): PatchedSet;
  /** The round published `round`: batches go on on its set. */
  roundPublished(round: PublishedRound): void;
  /** The round ended without publishing: batches go on on the set they had. */
  release(): void;
}

/** One micro-batch as committed: what this process's in-memory set applies (LiveOpportunities.applyBatch). */
export interface PublishedBatch {
  version: number;
  /** The version it was published on. */
  previousVersion: number;
  bases: ReadonlySet<string>;
  /** Of `bases`, the assets re-ranked in part, with the venues their re-ranked pairs have a leg on. */
  partial: PartialAssets;
  /** Every pair of `bases` (of `partial`'s assets, those with a leg on its venues), re-ranked, in set order. */
  items: OpportunityColumns;
}

/** Where one committed batch's time went, in ms (performance.now), and its size. */
export interface BatchTimings {
  /** Re-ranking the changed pairs with the round's history. */
  rank: number;
  /** Patching the re-ranked pairs into the set (PatchedSet.patched: the batch's width, not the set's). */
  patch: number;
  /** Laying the pairs out in their stored form, and deriving their change events. */
  events: number;
  /** Waiting for the packing's compression, which ran on libuv's threads while the events were derived. */
  encode: number;
  /** The publishing transaction. */
  write: number;
  /** From taking the pending markets to the commit, `onPublished` not included. */
  total: number;
  bases: number;
  /** Of `bases`, how many were re-ranked in part. */
  partial: number;
  markets: number;
  pairs: number;
  /** The patch's stored size; 0 when a test's writer packs nothing. */
  bytes: number;
}

/** Time for the publisher, replaced by tests. */
export interface BatchClock {
  now(): number;
  /** Runs `run` in `ms`; answers what cancels it. */
  setTimer(run: () => void, ms: number): () => void;
}

const SYSTEM_CLOCK: BatchClock = {
  now: () => Date.now(),
  setTimer: (run, ms) => {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
};

/**
 * A clock reading `now` whose timers all run on the event loop's next turn, whatever their delay:
 * each batch starts as soon as the last one committed (benchmarks timing a batch's work, tests).
 */
export function immediateClock(now: () => number = Date.now): BatchClock {
  return {
    now,
    setTimer: (run) => {
      const timer = setImmediate(run);
      return () => clearImmediate(timer);
    },
  };
}

export interface MicroBatchOptions {
  db: Db;
  /** PUBLISH_BATCH_MS: batches start at most this often. */
  periodMs: number;
  /** Price moves, and how they are conflated (see `isNews`); the defaults when absent. */
  prices?: PriceConflation;
  /** The change-event log (LiveRoundEvents): each batch appends its pairs' events in its transaction. */
  events?: RoundEvents;
  /** Told each published leg's observation and publish times (the venue-to-publish latency). */
  feedStatus?: FeedStatusRecorder;
  /** Told each committed batch: this process's in-memory set applies it. */
  onPublished?: (batch: PublishedBatch) => void;
  clock?: BatchClock;
  /** Told where each committed batch's time went (benchmarks, logs). */
  onTimings?: (timings: BatchTimings) => void;
  /** Writes a batch; store.ts `publishBatch` unless a test replaces it. */
  write?: typeof publishBatch;
  /** How many pairs of carried assets a batch re-ranks at most (RESTATED_PAIRS_PER_BATCH unless a test lowers it). */
  restatedPairs?: number;
}

/**
 * How many pairs of the assets a round carried from batches (`stale`) one batch re-ranks at most,
 * beyond at least one asset: the round's set carries every asset batches patched while its events
 * were derived, up to a hundred, and re-ranking each whole with its next news made the batches
 * after a round twenty times as wide as the others (seconds of the serving thread each at 46
 * venues). The rest wait for later batches; their news meanwhile goes out at once, re-ranking the
 * pairs of its venues. About three assets listed on 40 venues.
 */
export const RESTATED_PAIRS_PER_BATCH = 2_000;

/** When a market whose only news is its price joins a batch. */
export interface PriceConflation {
  /** PUBLISH_PRICE_MOVE_BPS: a mark or index price this far (in basis points) from the published one is news. */
  moveBps: number;
  /** PUBLISH_PRICE_REFRESH_MS: smaller moves are published with their asset once in this period (0: by the next round). */
  refreshMs: number;
}

/** The fields whose every change is news at once; prices (mark, index) are news past a move (`isNews`). */
const NEWS_FIELDS = VALUE_FIELDS.filter((field) => !(PRICE_FIELDS as readonly string[]).includes(field));
/** Of those, the ones a stream message can change (the funding rates and the next settlement). */
const STREAMED_NEWS_FIELDS = NEWS_FIELDS.filter((field) => (STREAM_FIELDS as readonly string[]).includes(field));

/**
 * Whether `pushed` says something its published snapshot did not, enough to publish it in the
 * next batch: any funding field (rate, predicted rate, next funding time, interval, cap, …), a
 * price appearing or going, or a price moved by `moveBps` or more. Otherwise only its prices
 * moved a little, as they do in nearly every frame of every venue: re-ranking each asset each
 * second for them would make every batch as wide as a round (bench:micro-batch), so they wait
 * for their asset's refresh, and the served legs keep the time of what they show.
 *
 * A streamed leg is news only in what a stream message can change. The rest (open interest,
 * volume, the interval, caps, the fee) it has from the round its feed merged it on: where that
 * differs from the published leg, the base changed at a round, which published those values
 * itself, and every market of every venue would otherwise be news at once after each round.
 */
export function isNews(published: MarketSnapshot, pushed: MarketSnapshot, moveBps: number): boolean {
  return changeIsNews(published, pushed, pushed.transport === "stream" ? STREAMED_NEWS_FIELDS : NEWS_FIELDS, moveBps);
}

/** The set batches are published on, and the markets it was ranked from. */
interface Base {
  version: number;
  /**
   * The round's set with each batch since patched in. Its layers read the batches' columns, so
   * those are in memory of their own, never a reused slab (small, unless a batch is as wide as a round).
   */
  set: PatchedSet;
  history: MarketHistory;
  asOf: Date;
  /** Each market's snapshot by `marketKey`, and the keys of each asset's markets. */
  markets: Map<string, MarketSnapshot>;
  byBase: Map<string, Set<string>>;
}

/**
 * The live feeds' sink (LegUpdateSink): gathers the markets they push, the latest of each, and
 * publishes them in micro-batches: the assets whose legs changed are re-ranked alone, with the
 * last round's history, patched into the live set as a layer (PatchedSet: no pass over the whole
 * set per batch), their pairs' change events derived against those assets' pairs before and
 * appended, and the set's version bumped with a small patch (store.ts `publishBatch`).
 *
 * A batch starts at once when the previous one started a period ago or more (an update after a
 * quiet spell waits for nothing: a fixed window would only add its length to the latency), else
 * when the period is up; under a steady flow that is one batch a period, and an update waits at
 * most a period plus one batch's work. One batch at a time. Whole rounds stay the reconciliation:
 * a round holds batches back while it ranks and publishes (RoundBatches), and a batch meeting a
 * set it was not computed on (a round of another process) is not written.
 */
export class MicroBatchPublisher implements LegUpdateSink, RoundBatches {
  private base: Base | undefined;
  /** Markets with news, for the next batch. */
  private pending = new Map<string, MarketSnapshot>();
  /** Markets whose prices alone moved a little since published, for their asset's refresh. */
  private deferred = new Map<string, MarketSnapshot>();
  /**
   * Assets some of whose pairs a round kept as a batch published them (ranked with the markets
   * before the round's): those pairs, all of the asset's (null) or those with a leg on the venues
   * given, are re-ranked with the round's markets and history with its next news or at its refresh turn.
   */
  private stale = new Map<string, ReadonlySet<string> | null>();
  private readonly phases = new Map<string, number>();
  /** The pairs each batch committed on the current base replaced, for a round catching up (`patchedSince`). */
  private patches: { version: number; bases: ReadonlySet<string>; partial: PartialAssets }[] = [];
  /** When the last batch looked for assets due a refresh. */
  private refreshedAt: number | undefined;
  private readonly prices: PriceConflation;
  private held = false;
  /** When a round held the batches back, while it does, and how long it waited for the batch in flight. */
  private heldAt: number | undefined;
  private inFlightMs = 0;
  private inFlight: Promise<void> | undefined;
  private cancelTimer: (() => void) | undefined;
  private lastStartedAt = Number.NEGATIVE_INFINITY;
  private readonly clock: BatchClock;
  /**
   * What the batches did so far: published, assets and markets re-ranked, markets published for
   * their asset's refresh, batches superseded by a newer set.
   */
  readonly counts = { batches: 0, bases: 0, markets: 0, refreshed: 0, superseded: 0 };

  constructor(private readonly options: MicroBatchOptions) {
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.prices = options.prices ?? DEFAULT_PRICE_CONFLATION;
  }

  push(changed: readonly MarketSnapshot[]): void {
    for (const snapshot of changed) {
      const key = marketKey(snapshot.exchange, snapshot.market);
      const held = this.pending.get(key) ?? this.deferred.get(key);
      if (held && held.observedAt > snapshot.observedAt) continue;
      const published = this.base?.markets.get(key);
      // Once a market has news pending, what follows it goes too: each snapshot holds the last one's news.
      if (!published || this.pending.has(key) || isNews(published, snapshot, this.prices.moveBps)) {
        this.pending.set(key, snapshot);
        this.deferred.delete(key);
      } else {
        this.deferred.set(key, snapshot);
      }
    }
    this.schedule();
  }

  async hold(): Promise<void> {
    this.held = true;
    this.heldAt = this.clock.now();
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    await this.inFlight;
    this.inFlightMs = this.clock.now() - this.heldAt;
  }

  newest(fresh: readonly MarketSnapshot[]): MarketSnapshot[] {
    return fresh.map((snapshot) => {
      const key = marketKey(snapshot.exchange, snapshot.market);
      let newest = snapshot;
      for (const pushed of [this.pending.get(key), this.deferred.get(key), this.base?.markets.get(key)]) if (pushed && pushed.observedAt > newest.observedAt) newest = pushed;
      return newest;
    });
  }

  get version(): number | undefined {
    return this.base?.version;
  }

  patchedSince(version: number | undefined): PairScope {
    const bases = new Set<string>();
    const partial = new Map<string, Set<string>>();
    if (version === undefined) return { bases, partial };
    const whole = new Set<string>();
    for (const patch of this.patches) {
      if (patch.version <= version) continue;
      for (const asset of patch.bases) {
        bases.add(asset);
        const venues = patch.partial.get(asset);
        if (!venues) whole.add(asset);
        else for (const venue of venues) keysOf(partial, asset).add(venue);
      }
    }
    for (const asset of whole) partial.delete(asset);
    return { bases, partial };
  }

  caughtUp(ranking: readonly MarketSnapshot[], also: ReadonlySet<string> = new Set()): { ranking: MarketSnapshot[]; bases: Set<string> } {
    const published = this.base?.markets;
    const bases = new Set(also);
    const merged = ranking.map((snapshot) => {
      const newer = published?.get(marketKey(snapshot.exchange, snapshot.market));
      if (!newer || newer.observedAt <= snapshot.observedAt) return snapshot;
      bases.add(newer.base);
      return newer;
    });
    return { ranking: merged, bases };
  }

  carrying(set: OpportunityColumns, scope: PairScope): PatchedSet {
    return this.base ? PatchedSet.carrying(set, this.base.set, scope) : PatchedSet.of(set);
  }

  roundPublished(round: PublishedRound): void {
    const markets = new Map<string, MarketSnapshot>();
    const byBase = new Map<string, Set<string>>();
    for (const snapshot of round.snapshots) {
      const key = marketKey(snapshot.exchange, snapshot.market);
      markets.set(key, snapshot);
      keysOf(byBase, snapshot.base).add(key);
    }
    const set = round.set instanceof PatchedSet ? round.set : PatchedSet.of(round.set);
    this.base = { version: round.version, set, history: round.history, asOf: round.asOf, markets, byBase };
    this.patches = [];
    this.stale = new Map([...set.patchedAssets].map((asset) => [asset, round.carried?.partial.get(asset) ?? null]));
    const bound = round.history.priceBound;
    if (bound !== undefined && round.rankedFrom) {
      const inPart = new Set([...this.stale].filter(([, venues]) => venues !== null).map(([asset]) => asset));
      const [before, after] = [ofAssets(round.rankedFrom, inPart), ofAssets(round.snapshots, inPart)];
      for (const asset of inPart) if (boundChanges(before.get(asset) ?? [], after.get(asset) ?? [], bound).size > 0) this.stale.set(asset, null);
    }
    // What the round ranked with (or newer) is in its set already.
    for (const waiting of [this.pending, this.deferred]) {
      for (const [key, snapshot] of waiting) if ((markets.get(key)?.observedAt ?? Number.NEGATIVE_INFINITY) >= snapshot.observedAt) waiting.delete(key);
    }
    this.release();
  }

  release(): void {
    this.held = false;
    if (this.heldAt !== undefined) {
      // What every change arriving meanwhile waited for on top of a batch period: the rounds' part of the latency's tail.
      log.info({ heldMs: this.clock.now() - this.heldAt, inFlightMs: this.inFlightMs, pending: this.pending.size }, "micro-batches resumed after the round");
      this.heldAt = undefined;
    }
    this.schedule();
  }

  /** The batch being published, until it is committed or given up; a round's sliced work waits for it (yieldSlicesTo). */
  get batchInFlight(): Promise<void> | undefined {
    return this.inFlight;
  }

  /** Stops the timer; a batch in flight finishes. */
  async stop(): Promise<void> {
    this.held = true;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    await this.inFlight;
  }

  private schedule(): void {
    // Deferred markets and stale assets alone are looked at once a period, for the assets whose
    // refresh came; without a refresh period only news (or the next round) takes them.
    const waiting = this.pending.size + (this.prices.refreshMs > 0 ? this.deferred.size + this.stale.size : 0);
    if (this.cancelTimer || this.inFlight || this.held || !this.base || waiting === 0) return;
    const wait = Math.max(0, this.lastStartedAt + this.options.periodMs - this.clock.now());
    this.cancelTimer = this.clock.setTimer(() => {
      this.cancelTimer = undefined;
      if (this.held || this.inFlight) return;
      this.inFlight = this.publishPending().finally(() => {
        this.inFlight = undefined;
        this.schedule();
      });
    }, wait);
  }

  private async publishPending(): Promise<void> {
    const base = this.base;
    if (!base) return;
    this.lastStartedAt = this.clock.now();
    const started = performance.now();
    const taken = this.pending;
    this.pending = new Map();
    const { markets: refreshes, assets: restated } = this.dueForRefresh(new Set(Array.from(taken.values(), (snapshot) => snapshot.base)));
    for (const [key, snapshot] of refreshes) taken.set(key, snapshot);
    const changed: [string, MarketSnapshot][] = [];
    for (const [key, snapshot] of taken) if ((base.markets.get(key)?.observedAt ?? Number.NEGATIVE_INFINITY) <= snapshot.observedAt) changed.push([key, snapshot]);
    const bases = new Set([...changed.map(([, s]) => s.base), ...restated.keys()]);
    if (bases.size === 0) return;
    try {
      const { ofBases, partial } = this.scopeOf(base, bases, changed, restated);
      const items = rankWithHistory(ofBases, base.history, partial);
      const ranked = performance.now();
      const set = base.set.patched(bases, items, partial);
      const patched = performance.now();
      // Packed here rather than in publishBatch, so the two are timed apart, and laid out before the
      // events are derived so that libuv's threads compress it meanwhile; a writer of a test's packs nothing.
      const packing = this.options.write ? undefined : encodeColumns(items);
      packing?.catch(() => undefined); // awaited below, after the events: its failure is the batch's
      const publishedAt = this.clock.now();
      const events = this.options.events?.prepareBatch({ previous: base.set, bases, partial, items, set, asOf: base.asOf, publishedAt: new Date(publishedAt) });
      const prepared = performance.now();
      // A batch of stale assets alone changed no market: its data is of the round's time.
      const newestObserved = Math.max(base.asOf.getTime(), ...changed.map(([, s]) => s.observedAt));
      const packed = await packing;
      const encoded = performance.now();
      const version = await (this.options.write ?? publishBatch)(this.options.db, base.version, { bases: [...bases], partial, items, asOf: new Date(newestObserved), packed }, events?.statements);
      const written = performance.now();
      if (version === null) {
        // Another process published a newer set: its markets are not known here, so batches wait for this process's next round.
        this.counts.superseded += 1;
        if (this.base === base) {
          this.base = undefined;
          // Nothing of them is in the newer set: a round carries none of their pairs.
          this.patches = [];
        }
        this.requeue(changed);
        log.warn({ version: base.version }, "a micro-batch met a newer opportunity set and was not written; batches resume after the next round");
        return;
      }
      events?.committed(version);
      for (const [key, snapshot] of changed) {
        base.markets.set(key, snapshot);
        keysOf(base.byBase, snapshot.base).add(key);
      }
      const previousVersion = base.version;
      base.version = version;
      base.set = set;
      this.patches.push({ version, bases, partial });
      // Restated, or re-ranked whole for its news: an asset with news waiting for its turn to be restated stays stale.
      for (const asset of bases) if (restated.has(asset) || !partial.has(asset)) this.stale.delete(asset);
      this.counts.batches += 1;
      this.counts.bases += bases.size;
      this.counts.markets += ofBases.length;
      this.counts.refreshed += refreshes.size;
      // The venue-to-publish latency is news's: a refresh waits for its asset's turn by design.
      for (const [key, snapshot] of changed) if (!refreshes.has(key)) this.options.feedStatus?.published(snapshot.exchange as VenueId, snapshot.observedAt, publishedAt);
      this.options.onTimings?.({
        rank: ranked - started,
        patch: patched - ranked,
        events: prepared - patched,
        encode: encoded - prepared,
        write: written - encoded,
        total: performance.now() - started,
        bases: bases.size,
        partial: partial.size,
        markets: ofBases.length,
        pairs: items.count,
        bytes: packed?.byteLength ?? 0,
      });
      this.options.onPublished?.({ version, previousVersion, bases, partial, items });
    } catch (error) {
      // Kept for the next batch, a period later: nothing pushed is lost to a failed write.
      this.requeue(changed);
      log.error({ err: error }, "publishing a micro-batch failed; its markets go in the next one");
    }
  }

  /**
   * The markets a batch of `bases` ranks, and which of those assets it re-ranks in part: an asset
   * whose changed markets are on some of its venues re-ranks only its pairs with a leg on those
   * venues (a funding change on one venue of 40 moves 39 pairs of 780), on the venues of the pairs
   * a round kept from before it (`restated`; null: all of them, the asset whole), and on any venue
   * whose leg the price bound now leaves out or takes back (pair-scope.ts).
   */
  private scopeOf(base: Base, bases: ReadonlySet<string>, changed: readonly [string, MarketSnapshot][], restated: ReadonlyMap<string, ReadonlySet<string> | null>) {
    const replacing = new Map(changed);
    const publishedOf = (asset: string) => Array.from(base.byBase.get(asset) ?? [], (key) => base.markets.get(key)!);
    // Each asset's markets as the batch ranks them: the published ones, the changed ones replaced.
    const after = new Map<string, MarketSnapshot[]>();
    for (const asset of bases) after.set(asset, publishedOf(asset).filter((s) => !replacing.has(marketKey(s.exchange, s.market))));
    const partial = new Map<string, Set<string>>();
    for (const [, snapshot] of changed) {
      after.get(snapshot.base)!.push(snapshot);
      keysOf(partial, snapshot.base).add(snapshot.exchange);
    }
    for (const [asset, venues] of restated) {
      if (venues === null) partial.delete(asset);
      else for (const venue of venues) keysOf(partial, asset).add(venue);
    }
    const bound = base.history.priceBound;
    for (const [asset, venues] of partial) {
      const now = after.get(asset)!;
      if (bound !== undefined) {
        for (const exchange of boundChanges(publishedOf(asset), now, bound)) venues.add(exchange);
      }
      // Every venue changed: the asset is re-ranked whole.
      if (now.every((snapshot) => venues.has(snapshot.exchange))) partial.delete(asset);
    }
    return { ofBases: [...after.values()].flat(), partial };
  }

  /**
   * Takes the deferred markets this batch publishes, and the stale assets it re-ranks: deferred
   * markets of the assets whose turn in the refresh period came since the last batch looked, so
   * each asset's prices are published at least once a period and about 1/(refresh ÷ batch period)
   * of the assets are refreshed in each batch; stale assets at their turn or with news (`ranked`).
   * An asset with news does not take its deferred markets along: its batch would re-rank all its
   * pairs for them rather than those of its changed venues.
   */
  private dueForRefresh(ranked: ReadonlySet<string>): { markets: Map<string, MarketSnapshot>; assets: Map<string, ReadonlySet<string> | null> } {
    const now = this.clock.now();
    const since = this.refreshedAt ?? now;
    this.refreshedAt = now;
    const period = this.prices.refreshMs;
    const turns = new Map<string, boolean>();
    const turnOf = (asset: string) => {
      let turn = turns.get(asset);
      if (turn === undefined) turns.set(asset, (turn = refreshTurnCame(this.phaseOf(asset), since, now, period)));
      return turn;
    };
    const markets = new Map<string, MarketSnapshot>();
    // Without a refresh period no turn comes: the deferred markets wait for the next round.
    for (const [key, snapshot] of period > 0 ? this.deferred : []) {
      if (!turnOf(snapshot.base)) continue;
      markets.set(key, snapshot);
      this.deferred.delete(key);
    }
    const assets = new Map<string, ReadonlySet<string> | null>();
    const most = this.options.restatedPairs ?? RESTATED_PAIRS_PER_BATCH;
    let pairs = 0;
    for (const [asset, venues] of this.stale) {
      if (pairs >= most) break;
      if (!ranked.has(asset) && !turnOf(asset)) continue;
      assets.set(asset, venues);
      // An asset of n markets has n(n-1)/2 pairs, of which those with a leg on v of its venues number about v(n-1).
      const n = this.base?.byBase.get(asset)?.size ?? 0;
      pairs += venues === null ? (n * (n - 1)) / 2 : venues.size * Math.max(0, n - 1);
    }
    return { markets, assets };
  }

  private phaseOf(asset: string): number {
    let phase = this.phases.get(asset);
    if (phase === undefined) this.phases.set(asset, (phase = refreshPhase(asset)));
    return phase;
  }

  private requeue(changed: readonly [string, MarketSnapshot][]): void {
    for (const [key, snapshot] of changed) {
      const newer = this.pending.get(key);
      if (!newer || newer.observedAt < snapshot.observedAt) this.pending.set(key, snapshot);
    }
  }
}

/**
 * The venues whose legs `PAIR_PRICE_BOUND` leaves out with one of two states of an asset's markets
 * and not with the other: the bound judges each leg against its pairing group's median
 * (rank-opportunities.ts), so a moved price can leave out or take back a leg that did not change.
 * Judged per group (an asset's symbol may name markets of two underlying classes).
 */
export function boundChanges(before: readonly MarketSnapshot[], after: readonly MarketSnapshot[], bound: number): Set<string> {
  const strays = (markets: readonly MarketSnapshot[]) => new Set(strayPriceLegs(markets, bound).map((leg) => `${leg.underlying_class ?? ""}\u0000${leg.exchange}`));
  const [was, is] = [strays(before), strays(after)];
  const venues = new Set<string>();
  for (const key of was) if (!is.has(key)) venues.add(key.slice(key.indexOf("\u0000") + 1));
  for (const key of is) if (!was.has(key)) venues.add(key.slice(key.indexOf("\u0000") + 1));
  return venues;
}

/** The markets of `assets` in `snapshots`, by asset. */
function ofAssets(snapshots: readonly MarketSnapshot[], assets: ReadonlySet<string>): Map<string, MarketSnapshot[]> {
  const by = new Map<string, MarketSnapshot[]>();
  for (const snapshot of snapshots) {
    if (!assets.has(snapshot.base)) continue;
    const markets = by.get(snapshot.base);
    if (markets) markets.push(snapshot);
    else by.set(snapshot.base, [snapshot]);
  }
  return by;
}

function keysOf(byBase: Map<string, Set<string>>, base: string): Set<string> {
  let keys = byBase.get(base);
  if (!keys) byBase.set(base, (keys = new Set()));
  return keys;
}
