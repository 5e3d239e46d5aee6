import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db";
import type { SqlStatement } from "@/lib/db/direct-sql";
import { LiveRoundEvents } from "@/lib/events/live-round-events";
import type { NewEvent } from "@/lib/events/event-data";
import { everyPair } from "@/tests/support/market/every-pair";
import { marketKey } from "../model/market-average";
import type { MarketSnapshot, Opportunity } from "../model/types";
import { itemsOf, type OpportunityColumns } from "../opportunities/opportunity-columns";
import type { PatchedSet } from "../opportunities/patched-set";
import { spliceColumns } from "../opportunities/splice-opportunities";
import type { SetBatch } from "../opportunities/store";
import { replaySampleMarket } from "../sample/replay-sample-market";
import { rankWithHistory, type MarketHistory } from "./market-history";
import { DEFAULT_PRICE_CONFLATION } from "./ingest-config";
import { boundChanges, isNews, MicroBatchPublisher, type BatchClock, type BatchTimings, type PublishedBatch } from "./micro-batch-publisher";
import type { RoundEvents } from "./round-events";

const PERIOD = 1_000;
let sample: MarketSnapshot[];
let history: MarketHistory;

beforeAll(async () => {
  sample = (await replaySampleMarket()).snapshots;
  // Averages for a third of the markets, a settlement for some: the batches must rank with them as the round did.
  const sums = new Map(sample.filter((_, i) => i % 3 === 0).map((s, i) => [marketKey(s.exchange, s.market), { dayApr: 10 * (i % 7), daySamples: 3, weekApr: 50 + i, weekSamples: 20 }]));
  const settlements = new Map(sample.filter((_, i) => i % 5 === 0).map((s) => [marketKey(s.exchange, s.market), { rate: 0.0002, at: s.observedAt - 3_600_000 }]));
  history = { intervalChanges: new Map(), settlements, averages: { settled: sums, live: new Map(), weekFrom: 0, dayFrom: 0, to: Number.MAX_SAFE_INTEGER }, persistence: null };
}, 60_000); // the sample is parsed through every connector: slow on a busy machine

/** A clock whose time moves only when told; due timers run then, and the publisher's awaits settle. */
function fakeClock() {
  let now = 0;
  let timers: { at: number; run: () => void }[] = [];
  const clock: BatchClock = {
    now: () => now,
    setTimer: (run, ms) => {
      const timer = { at: now + ms, run };
      timers.push(timer);
      return () => (timers = timers.filter((t) => t !== timer));
    },
  };
  const settle = async () => {
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  const advance = async (ms: number) => {
    now += ms;
    for (;;) {
      const due = timers.filter((t) => t.at <= now);
      if (due.length === 0) break;
      timers = timers.filter((t) => !due.includes(t));
      for (const t of due) t.run();
      await settle();
    }
    await settle();
  };
  return { clock, advance, settle };
}

interface Written {
  onVersion: number;
  batch: SetBatch;
  statements: readonly SqlStatement[];
}

/** A refresh period for small price moves and carried assets (the default has none: the rounds refresh). */
const REFRESHING = { ...DEFAULT_PRICE_CONFLATION, refreshMs: 15_000 };

/** A publisher on the offline sample's round at version 5, writing to a stand-in of the set's row; prices refreshed every 15 s unless `prices` says otherwise. */
function setUp(
  options: { write?: (onVersion: number) => Promise<number | null>; history?: MarketHistory; markets?: MarketSnapshot[]; prices?: typeof REFRESHING; restatedPairs?: number } = {},
) {
  const { clock, advance, settle } = fakeClock();
  const [markets, ranked] = [options.markets ?? sample, options.history ?? history];
  const roundSet = rankWithHistory(markets, ranked);
  const state = { version: 5 };
  const written: Written[] = [];
  const published: PublishedBatch[] = [];
  /** Each batch's items as they were when published. */
  const publishedItems: Opportunity[][] = [];
  const timings: BatchTimings[] = [];
  const events: NewEvent[][] = [];
  const legs: { venue: string; observedAt: number; publishedAt: number }[] = [];
  const log = new LiveRoundEvents(5, 3_600_000);
  const roundEvents = {
    prepareBatch: (batch) => {
      const prepared = log.prepareBatch(batch);
      events.push(prepared.events);
      return prepared;
    },
  } as Pick<RoundEvents, "prepareBatch"> as RoundEvents;
  const publisher = new MicroBatchPublisher({
    db: {} as Db,
    periodMs: PERIOD,
    clock,
    prices: options.prices ?? REFRESHING,
    events: roundEvents,
    feedStatus: { message: () => undefined, reconnect: () => undefined, transport: () => undefined, published: (venue, observedAt, publishedAt) => legs.push({ venue, observedAt, publishedAt }) },
    onPublished: (batch) => {
      published.push(batch);
      publishedItems.push(itemsOf(batch.items));
    },
    onTimings: (timing) => timings.push(timing),
    restatedPairs: options.restatedPairs,
    write: async (_db, onVersion, batch, statements = []) => {
      written.push({ onVersion, batch, statements });
      if (options.write) return options.write(onVersion);
      return onVersion === state.version ? ++state.version : null;
    },
  });
  publisher.roundPublished({ version: 5, set: roundSet, snapshots: markets, history: ranked, asOf: new Date(Math.min(...markets.map((s) => s.observedAt))) });
  return { publisher, advance, settle, roundSet, state, written, published, publishedItems, timings, events, legs };
}

/** Bases of the sample with at least three venues, so a change moves several pairs. */
function busyBases(): string[] {
  const venues = new Map<string, number>();
  for (const s of sample) venues.set(s.base, (venues.get(s.base) ?? 0) + 1);
  return [...venues].filter(([, n]) => n >= 3).map(([base]) => base);
}

/** A market of `base` with its funding moved far enough to pass the events' threshold. */
function moved(base: string, nth = 0, later = 1_000): MarketSnapshot {
  const s = sample.filter((m) => m.base === base)[nth]!;
  return { ...s, fundingRate: (s.fundingRate ?? 0) + 0.003, observedAt: s.observedAt + later };
}

function merged(changed: readonly MarketSnapshot[]): MarketSnapshot[] {
  const byKey = new Map(sample.map((s) => [marketKey(s.exchange, s.market), s]));
  for (const s of changed) byKey.set(marketKey(s.exchange, s.market), s);
  return [...byKey.values()];
}

/**
 * The sample with its asset on the most venues held to a 2 % price bound: one market a venue, four
 * of them at 100, 100, 100 and 103 (the others unpriced, which the bound keeps), so the fourth is left out.
 */
function boundedAsset() {
  const counts = new Map<string, number>();
  for (const s of sample) counts.set(s.base, (counts.get(s.base) ?? 0) + 1);
  const a = [...counts].sort((p, q) => q[1] - p[1])[0]![0];
  const ofA = sample.filter((s, i, all) => s.base === a && all.findIndex((m) => m.base === a && m.exchange === s.exchange) === i);
  expect(ofA.length).toBeGreaterThan(4);
  const [w, x, y, z] = ofA as [MarketSnapshot, MarketSnapshot, MarketSnapshot, MarketSnapshot];
  const priced = (s: MarketSnapshot, markPrice: number | null) => ({ ...s, markPrice, contractMultiplier: 1 });
  const prices = new Map([w, x, y, z].map((s, i) => [s, i === 3 ? 103 : 100]));
  const markets = sample.filter((s) => s.base !== a).concat(ofA.map((s) => priced(s, prices.get(s) ?? null)));
  return { a, w, x, y, z, priced, markets, bounded: { ...history, priceBound: 0.02 } };
}

const symbolOf = (e: NewEvent) => (e.type === "opportunity.closed" ? e.data.symbol : (e.data as { opportunity: Opportunity }).opportunity.symbol);

describe("MicroBatchPublisher", () => {
  it("publishes a push after a quiet spell at once, then gathers a period's pushes into one batch re-ranking only their assets", async () => {
    const t = setUp();
    const [a, b, c] = busyBases();
    const first = moved(a!);
    t.publisher.push([first]);
    await t.advance(0);
    expect(t.written).toHaveLength(1);
    expect(t.written[0]!.onVersion).toBe(5);
    expect(t.written[0]!.batch.bases).toEqual([a]);
    expect(t.publisher.counts.markets).toBe(sample.filter((s) => s.base === a).length);

    // Three pushes within the next period (one market twice: the latest wins) make one batch, when the period is up.
    const second = moved(b!, 0, 2_000);
    const third = moved(c!, 1, 2_000);
    const secondLater = { ...second, fundingRate: second.fundingRate! + 0.001, observedAt: second.observedAt + 500 };
    await t.advance(100);
    t.publisher.push([second, third]);
    await t.advance(300);
    t.publisher.push([secondLater]);
    await t.advance(500);
    expect(t.written).toHaveLength(1);
    await t.advance(100);
    expect(t.written).toHaveLength(2);
    expect(t.written[1]!.onVersion).toBe(6);
    expect(new Set(t.written[1]!.batch.bases)).toEqual(new Set([b, c]));
    expect(t.publisher.counts).toMatchObject({ batches: 2, bases: 3, superseded: 0 });
    expect(t.publisher.counts.markets).toBe(sample.filter((s) => s.base === a || s.base === b || s.base === c).length);
    expect(t.state.version).toBe(7);

    // The live set after both batches is the whole merged market ranked afresh.
    let live: OpportunityColumns = t.roundSet;
    for (const batch of t.published) live = spliceColumns(live, batch.bases, batch.items, batch.partial);
    expect(itemsOf(live)).toEqual(itemsOf(rankWithHistory(merged([first, secondLater, third]), history)));
    expect(t.published.map((p) => [p.previousVersion, p.version])).toEqual([
      [5, 6],
      [6, 7],
    ]);

    // Events only for the changed assets' pairs, appended in the batch's own transaction.
    expect(t.events.flat().length).toBeGreaterThan(0);
    for (const e of t.events.flat()) expect([a, b, c]).toContain(symbolOf(e));
    expect(t.written[1]!.statements.some((s) => s.text.includes('INSERT INTO "MarketEvent"'))).toBe(t.events[1]!.length > 0);
    // Each published leg's observation reaches the feed status with its publish time.
    expect(t.legs).toEqual([
      { venue: first.exchange, observedAt: first.observedAt, publishedAt: 0 },
      { venue: secondLater.exchange, observedAt: secondLater.observedAt, publishedAt: 1_000 },
      { venue: third.exchange, observedAt: third.observedAt, publishedAt: 1_000 },
    ]);
  });

  it("stays equal to ranking the whole merged market afresh over batches moving every market, one venue's or two assets', each batch's columns left as published", async () => {
    const t = setUp();
    const held = new Map(sample.map((s) => [marketKey(s.exchange, s.market), s]));
    const few = new Set(busyBases().slice(0, 2));
    const venue = sample.find((s) => s.base === busyBases()[0])!.exchange;
    /** Which pairs batch `n` re-ranks: every pair, those with a leg on `venue` (every asset in part), or every pair of `few`. */
    const isMoved = (n: number, o: Opportunity) => (n % 3 === 1 ? true : n % 3 === 2 ? [o.long.exchange, o.short.exchange].includes(venue) : few.has(o.symbol));
    /** The set the publisher holds, which its next batch is patched into and diffs its events against, merged whole. */
    const liveSet = () => everyPair((t.publisher as unknown as { base: { set: PatchedSet } }).base.set);
    const sets: OpportunityColumns[] = [];
    for (let n = 1; n <= 6; n++) {
      // Every market moves (every streaming venue sent a frame this second), or one venue's, or those of two assets: each by 1 %, news.
      const moving = [...held.values()].filter((s) => (n % 3 === 1 ? true : n % 3 === 2 ? s.exchange === venue : few.has(s.base)));
      const changed = moving.map((s, i) => ({ ...s, fundingRate: (s.fundingRate ?? 0) + 0.0001 * (((n + i) % 4) - 1.5), markPrice: s.markPrice === null ? null : s.markPrice * (1 + n / 100), observedAt: s.observedAt + n * 1_000 }));
      for (const s of changed) held.set(marketKey(s.exchange, s.market), s);
      t.publisher.push(changed);
      await t.advance(PERIOD);
      expect(t.written).toHaveLength(n);
      const fresh = itemsOf(rankWithHistory([...held.values()], history));
      expect(itemsOf(liveSet())).toEqual(fresh);
      expect(t.publishedItems[n - 1]).toEqual(fresh.filter((o) => isMoved(n, o)));
      // One venue's markets re-rank every asset in part: only their pairs.
      // (An asset on one or two venues has every pair on `venue`: re-ranked whole.)
      expect(t.published[n - 1]!.partial.size > 0).toBe(n % 3 === 2);
      sets.push(liveSet());
    }
    // A batch of every asset publishes its pairs as the set; the others are merged into a set of their own.
    expect(t.published.map((b) => b.items.count === t.roundSet.count)).toEqual([true, false, false, true, false, false]);
    expect(sets.map((set, n) => set === t.published[n]!.items)).toEqual([true, false, false, true, false, false]);
    // The layers read every batch's columns later on: none is written over by a later batch.
    expect(t.published.map((b) => itemsOf(b.items))).toEqual(t.publishedItems);
    // Where each batch's time went, as the bench prints it.
    expect(t.timings).toHaveLength(6);
    for (const timing of t.timings) {
      expect(timing.total).toBeGreaterThanOrEqual(timing.rank + timing.patch + timing.events + timing.encode + timing.write - 1e-6);
    }
    expect(t.timings.map((timing) => timing.pairs)).toEqual(t.published.map((b) => b.items.count));
  });

  it("holds batches from a round's ranking to its commit, then publishes what was pushed meanwhile on the round's set", async () => {
    let finish!: (version: number) => void;
    const t = setUp({ write: (onVersion) => (onVersion === 5 ? new Promise<number>((resolve) => (finish = resolve)) : Promise.resolve(onVersion + 1)) });
    const [a, b] = busyBases();
    t.publisher.push([moved(a!)]);
    await t.advance(0);
    expect(t.written).toHaveLength(1);
    // A round starts while that batch is being written: it waits for the commit.
    let holding = true;
    const held = t.publisher.hold().then(() => (holding = false));
    await t.settle();
    expect(holding).toBe(true);
    finish(6);
    await held;
    // Pushed during the round: nothing is written until the round has published.
    const during = moved(b!, 0, 5_000);
    t.publisher.push([during]);
    await t.advance(5 * PERIOD);
    expect(t.written).toHaveLength(1);
    // The round ranks with the pushed leg newer than its own answer, and keeps its own where newer.
    const newerAnswer = { ...during, observedAt: during.observedAt + 10_000 };
    const fresh = sample.map((s) => (s.base === b ? { ...s, observedAt: during.observedAt - 1 } : s));
    const ranking = t.publisher.newest(fresh);
    expect(ranking.find((s) => s.exchange === during.exchange && s.market === during.market)).toBe(during);
    expect(t.publisher.newest([newerAnswer])[0]).toBe(newerAnswer);
    // The round publishes version 9 (others came between): the push it ranked is in its set, and is not published again.
    t.publisher.roundPublished({ version: 9, set: rankWithHistory(ranking, history), snapshots: ranking, history, asOf: new Date(0) });
    await t.advance(PERIOD);
    expect(t.written).toHaveLength(1);
    // A later push goes on the round's set.
    t.publisher.push([moved(b!, 1, 9_000)]);
    await t.advance(PERIOD);
    expect(t.written.map((w) => w.onVersion)).toEqual([5, 9]);
  });

  it("tells a round which legs batches published since it took its own, and which assets they patched after a version", async () => {
    const t = setUp();
    const [a, b, c] = busyBases();
    // The round takes its newest legs, then ranks while batches publish newer legs of assets a, then b.
    const ranking = t.publisher.newest(sample);
    expect(t.publisher.version).toBe(5);
    const duringA = moved(a!, 0, 5_000);
    t.publisher.push([duringA]);
    await t.advance(0);
    t.publisher.push([moved(b!, 0, 6_000)]);
    await t.advance(PERIOD);
    expect(t.written).toHaveLength(2);
    expect(t.publisher.version).toBe(7);
    const caught = t.publisher.caughtUp(ranking);
    expect(caught.ranking.find((s) => s.exchange === duringA.exchange && s.market === duringA.market)).toBe(duringA);
    expect(caught.ranking.filter((s, i) => s !== ranking[i])).toHaveLength(2);
    expect(caught.bases).toEqual(new Set([a, b]));
    // Assets asked for besides are re-ranked too; a ranking as new as what was published needs nothing.
    expect(t.publisher.caughtUp(caught.ranking, new Set([c!])).bases).toEqual(new Set([c]));
    expect(t.publisher.caughtUp(caught.ranking).bases.size).toBe(0);
    // What was patched after each version: the batches' assets, each in part (its pushed venue's
    // pairs), none after the last, none without a set.
    const [venueA, venueB] = [duringA.exchange, moved(b!).exchange];
    expect(t.publisher.patchedSince(5)).toEqual({ bases: new Set([a, b]), partial: new Map([[a, new Set([venueA])], [b, new Set([venueB])]]) });
    expect(t.publisher.patchedSince(6)).toEqual({ bases: new Set([b]), partial: new Map([[b, new Set([venueB])]]) });
    expect(t.publisher.patchedSince(7).bases.size).toBe(0);
    expect(t.publisher.patchedSince(undefined).bases.size).toBe(0);
    // A batch re-ranking `a` whole (every market of it moved) makes `a` whole since then.
    t.publisher.push(sample.filter((s) => s.base === a).map((s) => ({ ...s, fundingRate: (s.fundingRate ?? 0) + 0.001, observedAt: s.observedAt + 7_000 })));
    await t.advance(PERIOD);
    expect(t.publisher.patchedSince(5)).toEqual({ bases: new Set([a, b]), partial: new Map([[b, new Set([venueB])]]) });
    // A round's set starts the record afresh.
    t.publisher.roundPublished({ version: 9, set: t.roundSet, snapshots: caught.ranking, history, asOf: new Date(0) });
    expect(t.publisher.patchedSince(5).bases.size).toBe(0);
  });

  it("re-ranks an asset whose batch's pairs a round kept with the round's markets and history, at its refresh turn without news", async () => {
    const t = setUp();
    const [a, b] = busyBases();
    // A batch publishes `a` while the round derives its events; the round keeps that batch's pairs of `a`.
    t.publisher.push([moved(a!)]);
    await t.advance(0);
    expect(t.written).toHaveLength(1);
    // The round's own answer for another market of `a` is newer than the base the batch ranked `a` on.
    const answers = sample.map((s) => (s === sample.filter((m) => m.base === a)[1] ? { ...s, fundingRate: (s.fundingRate ?? 0) - 0.002, observedAt: s.observedAt + 500 } : s));
    const { ranking } = t.publisher.caughtUp(answers);
    const roundSet = rankWithHistory(ranking, history);
    // Of `a`, the batch re-ranked the pairs of its moved market's venue; all of `a`'s pairs as published are kept.
    expect(t.published[0]!.partial.get(a!)).toEqual(new Set([moved(a!).exchange]));
    const published = (t.publisher as unknown as { base: { set: PatchedSet } }).base.set.rowsOf(new Set([a!]));
    const scope = t.publisher.patchedSince(5);
    expect(scope.bases).toEqual(new Set([a]));
    const kept = t.publisher.carrying(roundSet, scope);
    expect(kept.roundSet).toBe(roundSet);
    // As a reader applying the batch's patch to the round's set has it: the round's pairs of `a`
    // but those with a leg on the batch's venue, which are the batch's.
    expect(itemsOf(everyPair(kept))).toEqual(itemsOf(spliceColumns(roundSet, scope.bases, t.published[0]!.items, scope.partial)));
    expect(itemsOf(everyPair(kept))).not.toEqual(itemsOf(spliceColumns(roundSet, scope.bases, published)));
    t.state.version = 9;
    t.publisher.roundPublished({ version: 9, set: kept, carried: scope, snapshots: ranking, history, asOf: new Date(0) });
    // Another asset's news goes alone; `a` waits for its turn in the refresh period (or for news of its own).
    t.publisher.push([moved(b!, 0, 2_000)]);
    await t.advance(PERIOD);
    expect(t.written.map((w) => w.batch.bases)).toEqual([[a], [b]]);
    await t.advance(REFRESHING.refreshMs);
    expect(t.written.map((w) => w.batch.bases)).toEqual([[a], [b], [a]]);
    // Re-ranked from the round's markets: the pairs the round kept from the batch (those on its
    // venue) as the round ranks them, and never again without a reason.
    const venue = moved(a!).exchange;
    expect(t.written[2]!.batch.partial).toEqual(new Map([[a, new Set([venue])]]));
    expect(itemsOf(t.written[2]!.batch.items)).toEqual(itemsOf(roundSet).filter((o) => o.symbol === a && [o.long.exchange, o.short.exchange].includes(venue)));
    const ofA = (set: OpportunityColumns) => itemsOf(set).filter((o) => o.symbol === a);
    expect(ofA(everyPair((t.publisher as unknown as { base: { set: PatchedSet } }).base.set))).toEqual(ofA(roundSet));
    await t.advance(2 * REFRESHING.refreshMs);
    expect(t.written).toHaveLength(3);
    // Kept whole (a round that says nothing of what it kept), `a` is re-ranked whole.
    t.publisher.push([moved(a!, 0, 9_000)]);
    await t.advance(PERIOD);
    t.publisher.roundPublished({ version: 11, set: t.publisher.carrying(roundSet, t.publisher.patchedSince(9)), snapshots: ranking, history, asOf: new Date(0) });
    await t.advance(REFRESHING.refreshMs);
    expect(t.written.at(-1)!.batch.partial?.has(a!)).toBe(false);
    expect(ofA(t.written.at(-1)!.batch.items)).toEqual(ofA(roundSet));
  });

  it("re-ranks the assets a round carried a few pairs a batch at most, their news going out at once meanwhile", async () => {
    // Without a refresh period, a carried asset is re-ranked whole with its next news; one asset's pairs a batch at most here.
    const t = setUp({ prices: DEFAULT_PRICE_CONFLATION, restatedPairs: 1 });
    const [a, b, c] = busyBases();
    t.publisher.push([moved(a!), moved(b!), moved(c!)]);
    await t.advance(0);
    // The round keeps that batch's pairs of all three, saying nothing of which: each is carried whole.
    const roundSet = rankWithHistory(sample, history);
    t.state.version = 9;
    t.publisher.roundPublished({ version: 9, set: t.publisher.carrying(roundSet, t.publisher.patchedSince(5)), snapshots: sample, history, asOf: new Date(0) });
    // Each push a new rate: news for all three.
    const news = (later: number) => [a, b, c].map((asset) => ({ ...moved(asset!, 0, later), fundingRate: (moved(asset!).fundingRate ?? 0) + later * 1e-7 }));
    const venue = moved(a!).exchange;
    const restatedWhole = () => [a, b, c].filter((asset) => !t.written.at(-1)!.batch.partial?.has(asset!));

    const restated: string[][] = [];
    for (const later of [5_000, 6_000, 7_000]) {
      t.publisher.push(news(later));
      await t.advance(PERIOD);
      expect(new Set(t.written.at(-1)!.batch.bases)).toEqual(new Set([a, b, c]));
      restated.push(restatedWhole() as string[]);
      // The others' news goes out all the same, re-ranking the pairs of its venue.
      for (const asset of [a, b, c]) if (!restated.at(-1)!.includes(asset!)) expect(t.written.at(-1)!.batch.partial?.get(asset!)).toEqual(new Set([venue]));
    }
    expect(restated.map((assets) => assets.length)).toEqual([1, 1, 1]);
    expect(new Set(restated.flat())).toEqual(new Set([a, b, c]));
    // All three re-ranked with the round's markets: news now re-ranks only the pairs of its venue.
    t.publisher.push(news(8_000));
    await t.advance(PERIOD);
    expect(restatedWhole()).toEqual([]);
  });

  it("never writes over a newer set: a batch that met one is dropped, and its legs wait for the next round", async () => {
    const t = setUp();
    const [a, b, c] = busyBases();
    t.publisher.push([moved(c!)]);
    await t.advance(0);
    expect(t.publisher.patchedSince(5).bases).toEqual(new Set([c]));
    t.state.version = 8; // another process's round published meanwhile
    const pushed = moved(a!);
    t.publisher.push([pushed]);
    await t.advance(PERIOD);
    // `c`'s batch was written; `a`'s met the newer set and was not.
    expect(t.written.map((w) => w.onVersion)).toEqual([5, 6]);
    expect(t.published.map((p) => p.version)).toEqual([6]);
    expect(t.publisher.counts).toMatchObject({ batches: 1, superseded: 1 });
    // What batches published on the old set is in no newer one: a round carries none of it.
    expect(t.publisher.patchedSince(5).bases.size).toBe(0);
    t.publisher.push([moved(b!)]);
    await t.advance(3 * PERIOD);
    expect(t.written).toHaveLength(2);
    // The next round of this process is the new base; the legs pushed since still go out, on it.
    t.publisher.roundPublished({ version: 8, set: t.roundSet, snapshots: sample, history, asOf: new Date(0) });
    await t.advance(PERIOD);
    expect(t.written).toHaveLength(3);
    expect(t.written[2]).toMatchObject({ onVersion: 8 });
    expect(new Set(t.written[2]!.batch.bases)).toEqual(new Set([a, b]));
    expect(t.published.map((p) => p.version)).toEqual([6, 9]);
  });

  it("drops a pushed leg older than the one the set already has", async () => {
    const t = setUp();
    const [a] = busyBases();
    const s = sample.find((m) => m.base === a)!;
    t.publisher.push([{ ...s, fundingRate: 0.01, observedAt: s.observedAt - 1 }]);
    await t.advance(0);
    expect(t.written).toHaveLength(0);
  });
  it("without a refresh period, leaves smaller price moves to news of their market or the next round", async () => {
    expect(DEFAULT_PRICE_CONFLATION.refreshMs).toBe(0);
    const t = setUp({ prices: DEFAULT_PRICE_CONFLATION });
    const priced = sample.filter((s) => s.markPrice !== null);
    const [smallOf, rateOf] = [...new Map(priced.map((s) => [s.base, s])).values()] as [MarketSnapshot, MarketSnapshot];
    const small = { ...smallOf, markPrice: smallOf.markPrice! * 1.0009, observedAt: smallOf.observedAt + 1_000 };
    t.publisher.push([small]);
    await t.advance(10 * 60_000);
    expect(t.written).toHaveLength(0);
    // News of the same market takes its newest price along.
    const news = { ...small, fundingRate: (small.fundingRate ?? 0) + 0.00001, observedAt: small.observedAt + 1 };
    t.publisher.push([news]);
    await t.advance(PERIOD);
    expect(t.written.map((w) => w.batch.bases)).toEqual([[smallOf.base]]);
    // Another asset's news does not take the small move's asset along.
    const other = sample.find((s) => s.base === rateOf.base && s.exchange !== rateOf.exchange) ?? rateOf;
    t.publisher.push([{ ...news, markPrice: news.markPrice! * 1.0001, observedAt: news.observedAt + 1 }, { ...other, fundingRate: (other.fundingRate ?? 0) + 0.00002, observedAt: other.observedAt + 1_000 }]);
    await t.advance(10 * 60_000);
    expect(t.written.map((w) => w.batch.bases)).toEqual([[smallOf.base], [rateOf.base]]);
  });

  it("publishes a funding change or a price move of 10 bps in the next batch, and smaller price moves with their asset, once a refresh period at most", async () => {
    const t = setUp();
    const priced = sample.filter((s) => s.markPrice !== null);
    const [rateOf, wideOf, smallOf] = [...new Map(priced.map((s) => [s.base, s])).values()] as [MarketSnapshot, MarketSnapshot, MarketSnapshot];
    const later = (s: MarketSnapshot, fields: Partial<MarketSnapshot>) => ({ ...s, ...fields, observedAt: s.observedAt + 1_000 });
    const rate = later(rateOf, { fundingRate: (rateOf.fundingRate ?? 0) + 0.00001 });
    const wide = later(wideOf, { markPrice: wideOf.markPrice! * 1.0011 });
    const small = later(smallOf, { markPrice: smallOf.markPrice! * 1.0009 });
    t.publisher.push([rate, wide, small]);
    await t.advance(0);
    expect(new Set(t.written[0]!.batch.bases)).toEqual(new Set([rateOf.base, wideOf.base]));
    // The small move waits for its asset's turn: within one refresh period, one batch a period.
    const refreshed = () => t.written.findIndex((w) => w.batch.bases.includes(smallOf.base));
    for (let elapsed = 0; refreshed() === -1 && elapsed <= REFRESHING.refreshMs; elapsed += PERIOD) await t.advance(PERIOD);
    expect(refreshed()).toBeGreaterThan(0);
    expect(t.written[refreshed()]!.batch.bases).toEqual([smallOf.base]);
    expect(t.publisher.counts.refreshed).toBe(1);
    // Published with its own time, and left out of the venue-to-publish latency, which is news's.
    expect(itemsOf(t.published[refreshed()]!.items).some((o) => [o.long, o.short].some((leg) => leg.exchange === small.exchange && leg.mark_price === small.markPrice))).toBe(true);
    expect(t.legs.map((leg) => leg.observedAt).sort()).toEqual([rate.observedAt, wide.observedAt].sort());
  });

  it("leaves a small price move for its asset's refresh when another of its venues has news, re-ranking only that venue's pairs, and gives the round the newest deferred snapshot", async () => {
    const t = setUp();
    const [a] = busyBases();
    const [first, second] = sample.filter((s) => s.base === a && s.markPrice !== null);
    const small = { ...second!, markPrice: second!.markPrice! * 1.0001, observedAt: second!.observedAt + 1_000 };
    t.publisher.push([small]);
    await t.advance(0);
    expect(t.written).toHaveLength(0);
    expect(t.publisher.newest([second!])).toEqual([small]);
    t.publisher.push([{ ...first!, fundingRate: (first!.fundingRate ?? 0) + 0.001, observedAt: first!.observedAt + 1_000 }]);
    await t.advance(PERIOD);
    expect(t.written[0]!.batch.bases).toEqual([a]);
    expect(t.written[0]!.batch.partial).toEqual(new Map([[a, new Set([first!.exchange])]]));
    expect(t.publisher.counts.refreshed).toBe(0);
    // Only the pairs with a leg on the news's venue, the small move's leg as published.
    const items = itemsOf(t.published[0]!.items);
    expect(items.length).toBe(sample.filter((s) => s.base === a).length - 1);
    expect(items.every((o) => [o.long.exchange, o.short.exchange].includes(first!.exchange))).toBe(true);
    expect(items.some((o) => [o.long, o.short].some((leg) => leg.exchange === small.exchange && leg.mark_price === second!.markPrice))).toBe(true);
    expect(t.publisher.newest([second!])).toEqual([small]);
  });

  it("widens an asset's partial re-ranking to the venues whose legs the price bound leaves out or takes back", async () => {
    const { a, w, x, y, z, priced, markets, bounded } = boundedAsset();
    const t = setUp({ history: bounded, markets });
    expect(itemsOf(t.roundSet).filter((o) => o.symbol === a).every((o) => o.long.exchange !== z!.exchange && o.short.exchange !== z!.exchange)).toBe(true);
    // `x` moves to 103: `x` and `z` agree now, `w` and `y` are left out, though neither changed.
    const xMoved = { ...priced(x!, 103), observedAt: x!.observedAt + 1_000 };
    t.publisher.push([xMoved]);
    await t.advance(0);
    expect(t.written[0]!.batch.partial).toEqual(new Map([[a, new Set([w!.exchange, x!.exchange, y!.exchange, z!.exchange])]]));
    const live = spliceColumns(t.roundSet, t.published[0]!.bases, t.published[0]!.items, t.published[0]!.partial);
    const fresh = rankWithHistory(markets.map((s) => (s.exchange === x!.exchange && s.market === x!.market ? xMoved : s)), bounded);
    expect(itemsOf(live)).toEqual(itemsOf(fresh));
    expect(itemsOf(live).some((o) => o.symbol === a && [o.long.exchange, o.short.exchange].includes(y!.exchange))).toBe(false);
    expect(itemsOf(live).some((o) => o.symbol === a && [o.long.exchange, o.short.exchange].includes(z!.exchange))).toBe(true);
  });

  it("re-ranks an asset carried in part whole when the round ranked its other pairs with markets the price bound judges otherwise", async () => {
    const { a, x, priced, markets, bounded } = boundedAsset();
    const t = setUp({ history: bounded, markets });
    // A batch moves `x` to 103 while a round ranks with `x` at 100: the round's pairs off `x` leave `z` out, the final markets pair it.
    const xMoved = { ...priced(x!, 103), observedAt: x!.observedAt + 1_000 };
    t.publisher.push([{ ...xMoved, markPrice: 100.5 }]);
    await t.advance(0);
    const scope = t.publisher.patchedSince(5);
    expect(scope.partial.get(a!)).toEqual(new Set([x!.exchange]));
    const final = markets.map((s) => (s.exchange === x!.exchange && s.market === x!.market ? xMoved : s));
    const roundSet = rankWithHistory(markets, bounded);
    const kept = t.publisher.carrying(roundSet, scope);
    t.publisher.roundPublished({ version: 9, set: kept, carried: scope, rankedFrom: markets, snapshots: final, history: bounded, asOf: new Date(0) });
    t.state.version = 9;
    await t.advance(REFRESHING.refreshMs);
    const batch = t.written.at(-1)!.batch;
    expect(batch.bases).toContain(a);
    expect(batch.partial?.has(a!)).toBe(false);
    const live = (t.publisher as unknown as { base: { set: PatchedSet } }).base.set;
    expect(itemsOf(everyPair(live)).filter((o) => o.symbol === a)).toEqual(itemsOf(rankWithHistory(final, bounded)).filter((o) => o.symbol === a));
  });

  it("tells which venues' legs the price bound judges otherwise after a move, within each underlying class", () => {
    const leg = (exchange: string, markPrice: number, underlyingClass?: "index") => ({ ...sample[0]!, base: "SPX", exchange, market: `SPX-${exchange}-${underlyingClass ?? "crypto"}`, markPrice, contractMultiplier: 1, ...(underlyingClass && { underlyingClass }) });
    const crypto = [leg("a", 1), leg("b", 1), leg("w", 2)];
    const index = [leg("c", 5000, "index"), leg("d", 5000, "index"), leg("w", 5000, "index")];
    // `w`'s crypto leg is left out before and after; its index leg only after the index moves.
    const after = [...crypto, ...index.map((s) => (s.exchange === "w" ? { ...s, markPrice: 5400 } : s))];
    expect(boundChanges([...crypto, ...index], after, 0.05)).toEqual(new Set(["w"]));
    expect(boundChanges([...crypto, ...index], [...crypto, ...index], 0.05).size).toBe(0);
  });

  it("tells news from a small price move", () => {
    const base = sample.find((s) => s.markPrice !== null && s.indexPrice !== null)!;
    const bps = DEFAULT_PRICE_CONFLATION.moveBps;
    expect(isNews(base, { ...base, observedAt: base.observedAt + 1 }, bps)).toBe(false);
    expect(isNews(base, { ...base, markPrice: base.markPrice! * 1.0009 }, bps)).toBe(false);
    expect(isNews(base, { ...base, indexPrice: base.indexPrice! * 0.9991 }, bps)).toBe(false);
    expect(isNews(base, { ...base, markPrice: base.markPrice! * 1.0011 }, bps)).toBe(true);
    expect(isNews(base, { ...base, indexPrice: base.indexPrice! * 0.9989 }, bps)).toBe(true);
    expect(isNews(base, { ...base, markPrice: null }, bps)).toBe(true);
    expect(isNews(base, { ...base, fundingRate: (base.fundingRate ?? 0) + 1e-9 }, bps)).toBe(true);
    expect(isNews(base, { ...base, predictedFundingRate: 0.0001234 }, bps)).toBe(true);
    expect(isNews(base, { ...base, nextFundingAt: (base.nextFundingAt ?? 0) + 3_600_000 }, bps)).toBe(true);
  });

  it("counts as news of a streamed leg only what a stream message can change, and all of a polled one", () => {
    const published = { ...sample.find((s) => s.openInterestUsd !== null && s.volume24hUsd !== null)!, transport: "stream" as const };
    const bps = DEFAULT_PRICE_CONFLATION.moveBps;
    // What the round answered since (the feed's new base): the stream's fields over it are as published.
    const roundChanged = {
      openInterestUsd: published.openInterestUsd! * 1.2, volume24hUsd: published.volume24hUsd! * 0.7,
      fundingIntervalHours: (published.fundingIntervalHours ?? 8) * 2,
      rateCap: (published.rateCap ?? 0) + 0.01,
      takerFee: (published.takerFee ?? 0) + 0.0001,
    };
    const streamed = { ...published, ...roundChanged, observedAt: published.observedAt + 1_000 };
    expect(isNews(published, streamed, bps)).toBe(false);
    expect(isNews(published, { ...streamed, transport: "poll" }, bps)).toBe(true);
    for (const field of Object.keys(roundChanged)) expect(isNews(published, { ...published, [field]: roundChanged[field as keyof typeof roundChanged], transport: "poll" }, bps)).toBe(true);
    // The stream's own fields are news as ever.
    expect(isNews(published, { ...streamed, fundingRate: (published.fundingRate ?? 0) + 1e-6 }, bps)).toBe(true);
    expect(isNews(published, { ...streamed, predictedFundingRate: 0.0004321 }, bps)).toBe(true);
    expect(isNews(published, { ...streamed, nextFundingAt: (published.nextFundingAt ?? 0) + 3_600_000 }, bps)).toBe(true);
    expect(isNews(published, { ...streamed, markPrice: published.markPrice! * 1.0011 }, bps)).toBe(true);
  });
});
