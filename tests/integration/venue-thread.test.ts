import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { fetchAllVenues, type VenueFetcher } from "@/lib/market/venues/fetch-all-venues";
import { venuesForSecondThread } from "@/lib/market/ingest/split-venues";
import { VenueThread } from "@/lib/market/ingest/venue-thread";
import { venueBudgets } from "@/lib/market/venues/venue-budget";
import { VENUE_IDS, type VenueId, type VenueSnapshotResult } from "@/lib/market/model/types";
import { createSpotFetcher, type ThreadFetcherOptions } from "./helpers/thread-venue-fetcher";
import type { SpotVenueResult } from "@/lib/market/carry/fetch-spot-legs";
import { replayFetcher } from "./helpers/venue-fetchers";
import { rankWithHistory, rankWithHistoryInSlices, type MarketHistory } from "@/lib/market/ingest/market-history";
import { ColumnSlabs } from "@/lib/market/opportunities/encoding/columns";
import type { RowWriter } from "@/lib/market/opportunities/rank-opportunities";
import { itemsOf } from "@/lib/market/opportunities/opportunity-columns";
import { crossVenuePairs, PersistenceSet } from "@/lib/market/persistence/persistence-set";
import type { MarketSnapshot } from "@/lib/market/model/types";
import { marketKey } from "@/lib/market/model/market-average";
import { differingColumns } from "@/tests/support/market/differing-columns";
import { wideMarket } from "@/tests/support/market/wide-market";

const fetcherModule = new URL("./helpers/thread-venue-fetcher.ts", import.meta.url).href;
const folder = mkdtempSync(path.join(os.tmpdir(), "venue-thread-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let thread: VenueThread | undefined;
afterEach(async () => {
  await thread?.close();
  thread = undefined;
});

/** The venues the calling thread fetched itself, and the thread's fetcher. */
function split(options: ThreadFetcherOptions = {}) {
  thread = new VenueThread({ fetcherModule, fetcherOptions: options });
  const replay = replayFetcher();
  const own = new Set<VenueId>();
  const ownFetcher: VenueFetcher = (venue, fetchOptions) => {
    own.add(venue);
    return replay(venue, fetchOptions);
  };
  return { own, fetcher: thread.fetcher(ownFetcher, VENUE_IDS) };
}

/**
 * A result without the times read from the clock, which differ from one fetch to the next: when it
 * was fetched and observed, and the next funding time of venues that state only the interval.
 */
function timeless(result: VenueSnapshotResult) {
  if (result.status !== "ok") return result;
  const { fetchedAt: _fetchedAt, ...rest } = result;
  return { ...rest, snapshots: result.snapshots.map(({ observedAt: _observedAt, nextFundingAt: _nextFundingAt, ...snapshot }) => snapshot) };
}

describe("a venue thread", () => {
  it("fetches about half the venues' markets on a second thread, each answer what this thread's own fetch gives", async () => {
    const { own, fetcher } = split();
    const first = await fetchAllVenues(fetcher, { timeoutMs: 10_000 });
    // Before any answer every venue weighs the same: every other one, in name order, is the thread's.
    expect(own.size).toBe(Math.floor(VENUE_IDS.length / 2));
    const alone = await fetchAllVenues(replayFetcher(), { timeoutMs: 10_000 });
    expect(first.map(timeless)).toEqual(alone.map(timeless));
    expect(first.every((r) => r.status === "ok")).toBe(true);

    // The next round is split by the markets each venue answered with, moving as few venues as
    // balance them: fewer than a split made anew would.
    const ownFirst = new Set(own);
    own.clear();
    await fetchAllVenues(fetcher, { timeoutMs: 10_000 });
    const marketsOf = (venue: VenueId) => (first.find((r) => r.exchange === venue) as { snapshots: unknown[] }).snapshots.length;
    const markets = (venues: Iterable<VenueId>) => [...venues].reduce((n, v) => n + marketsOf(v), 0);
    const theirs = VENUE_IDS.filter((v) => !own.has(v));
    const heaviest = Math.max(...first.map((r) => (r.status === "ok" ? r.snapshots.length : 0)));
    expect(theirs.length).toBeGreaterThan(0);
    expect(Math.abs(markets(theirs) - markets(own))).toBeLessThanOrEqual(heaviest);
    const moved = (from: ReadonlySet<VenueId>, to: (v: VenueId) => boolean) => VENUE_IDS.filter((v) => from.has(v) !== to(v)).length;
    const anew = venuesForSecondThread(VENUE_IDS, marketsOf);
    expect(moved(ownFirst, (v) => own.has(v))).toBeLessThan(moved(ownFirst, (v) => !anew.has(v)));
    // And stays so while the venues answer with the same markets.
    const ownSecond = new Set(own);
    own.clear();
    await fetchAllVenues(fetcher, { timeoutMs: 10_000 });
    expect(own).toEqual(ownSecond);
  }, 60_000);

  it("without a fetcher of its own sends every venue to the thread, which imports the process's preloads first", async () => {
    const venues: VenueId[] = ["binance", "bybit", "hyperliquid", "okx"];
    const preload = new URL("./helpers/thread-preload.ts", import.meta.url).href;
    thread = new VenueThread({ fetcherModule, fetcherOptions: { needsPreload: true } satisfies ThreadFetcherOptions, preloads: [preload] });
    const results = await fetchAllVenues(thread.fetcher(undefined, venues), { timeoutMs: 30_000, venues });
    expect(results.map((r) => [r.exchange, r.status])).toEqual(venues.map((v) => [v, "ok"]));
    await thread.close();

    // Its check holds: without the preload every venue is stale.
    thread = new VenueThread({ fetcherModule, fetcherOptions: { needsPreload: true } satisfies ThreadFetcherOptions, preloads: [] });
    const without = await fetchAllVenues(thread.fetcher(undefined, venues), { timeoutMs: 30_000, venues });
    expect(without.map((r) => (r.status === "ok" ? "ok" : r.error))).toEqual(venues.map(() => "not preloaded"));
  }, 60_000);

  it.runIf(process.platform === "linux")("runs below the priority of the thread that started it when asked, that thread's own left as it was", async () => {
    const niceOf = () => readdirSync("/proc/self/task").map((task) => Number(readFileSync(`/proc/self/task/${task}/stat`, "utf8").split(") ")[1]!.split(" ")[16]));
    const own = os.getPriority(0);
    const before = niceOf();
    thread = new VenueThread({ fetcherModule, nice: 7 });
    const venues: VenueId[] = ["binance"];
    expect((await fetchAllVenues(thread.fetcher(undefined, venues), { timeoutMs: 30_000, venues }))[0]!.status).toBe("ok");
    expect(niceOf().filter((nice) => nice === own + 7).length).toBe(before.filter((nice) => nice === own + 7).length + 1);
    expect(os.getPriority(0)).toBe(own);
  }, 60_000);

  it("draws from the process's venue budgets: what the thread spends, the round's thread sees spent", async () => {
    // Four venues, so a loaded machine boots the thread well within the deadline.
    const venues: VenueId[] = ["binance", "bybit", "hyperliquid", "okx"];
    thread = new VenueThread({ fetcherModule, fetcherOptions: { drawBudget: true } satisfies ThreadFetcherOptions });
    const own = new Set<VenueId>();
    const replay = replayFetcher();
    const fetcher = thread.fetcher((venue, options) => {
      own.add(venue);
      return replay(venue, options);
    }, venues);
    const results = await fetchAllVenues(fetcher, { timeoutMs: 30_000, venues });
    expect(results.filter((r) => r.status !== "ok")).toEqual([]);
    const theirs = venues.filter((v) => !own.has(v));
    expect(theirs.length).toBe(2);
    // This thread's own replays drew nothing; every request the thread sent drew from the same buckets.
    for (const venue of own) expect(venueBudgets().draws(venue), venue).toBe(0);
    for (const venue of theirs) expect(venueBudgets().draws(venue), venue).toBeGreaterThan(0);
  }, 60_000);

  it("makes its venues stale when the thread dies, and the next round starts a new one", async () => {
    const marker = path.join(folder, "exited");
    // Every other venue in name order is the thread's at first: the first of them, by name.
    const { fetcher } = split({ exitOn: { venue: [...VENUE_IDS].sort()[0]!, marker } });
    const broken = await fetchAllVenues(fetcher, { timeoutMs: 10_000 });
    const stale = broken.filter((r) => r.status === "stale");
    expect(stale.length).toBeGreaterThan(0);
    for (const result of stale) expect(result).toMatchObject({ error: "the venue thread exited (code 3)" });
    // Only the thread's venues: this thread's own answered.
    expect(broken.filter((r) => r.status === "ok").length).toBeGreaterThanOrEqual(Math.floor(VENUE_IDS.length / 2));

    const next = await fetchAllVenues(fetcher, { timeoutMs: 10_000 });
    expect(next.filter((r) => r.status !== "ok")).toEqual([]);
  }, 60_000);

  it("lets go of a venue the thread never answers a second after its deadline", async () => {
    const venue = [...VENUE_IDS].sort()[0]!;
    const { fetcher } = split({ hangOn: venue });
    const started = Date.now();
    const result = await fetcher(venue, { timeoutMs: 200 });
    expect(result).toMatchObject({ status: "stale", exchange: venue, error: "no answer from the venue thread within 200 ms" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_200);
  }, 60_000);

  it("reloads the market lists its refreshes found due when asked (after a round), not inside a refresh", async () => {
    thread = new VenueThread({ fetcherModule, fetcherOptions: { listsAgeing: true } satisfies ThreadFetcherOptions });
    expect(await thread.reloadMarketLists()).toBe(0); // no thread yet: nothing loaded
    const fetcher = thread.fetcher(undefined, VENUE_IDS);
    const both = ["okx", "bybit"] as const;
    const refresh = () => Promise.all(both.map((venue) => fetcher(venue, { timeoutMs: 10_000 })));
    // Loaded by the first refreshes: not due.
    expect((await refresh()).map((r) => r.status)).toEqual(["ok", "ok"]);
    expect(await thread.reloadMarketLists()).toBe(0);
    // On the thread's clock the lists are now MARKETS_TTL_MS old: the refreshes read them as they are.
    expect((await refresh()).map((r) => r.status)).toEqual(["ok", "ok"]);
    expect(await thread.reloadMarketLists()).toBe(2);
    expect(await thread.reloadMarketLists()).toBe(0);
  });

  it("fetches the spot venues on the thread: each answer what this thread's own fetch gives", async () => {
    thread = new VenueThread({ fetcherModule, spotFetcherModule: fetcherModule });
    const onThread = await thread.spotFetcher({})({ timeoutMs: 10_000 });
    const here = await createSpotFetcher()({ timeoutMs: 10_000 });
    // Times differ from one fetch to the next; which venues answered, and with what, does not.
    const timeless = (result: SpotVenueResult) =>
      result.status === "ok" ? { ...result, fetchedAt: 0, legs: result.legs.map((leg) => ({ ...leg, observedAt: "", borrow: leg.borrow && { ...leg.borrow, observedAt: "" } })) } : { ...result, fetchedAt: 0 };
    expect(onThread.map(timeless)).toEqual(here.map(timeless));
    expect(onThread.filter((r) => r.status === "ok").length).toBeGreaterThanOrEqual(5);
  }, 60_000);

  it("fails the spot fetch with the thread's error", async () => {
    thread = new VenueThread({ fetcherModule, spotFetcherModule: fetcherModule, fetcherOptions: { spotFails: "every spot venue is down" } satisfies ThreadFetcherOptions });
    await expect(thread.spotFetcher({})({ timeoutMs: 10_000 })).rejects.toThrow("every spot venue is down");
  }, 60_000);

  it("answers what it was asked and not yet answered as stale when closed", async () => {
    const { fetcher } = split();
    const asked = fetchAllVenues(fetcher, { timeoutMs: 10_000 });
    await thread!.close();
    const results = await asked;
    expect(results.some((r) => r.status === "stale" && r.error === "the venue thread was closed")).toBe(true);
  }, 60_000);

  it("ranks a round's markets as this thread does, the persistence set sent to each thread once", async () => {
    thread = new VenueThread({ fetcherModule });
    const { snapshots, marketHistory } = wideMarket(60);
    const through = Date.UTC(2026, 8, 27, 13);
    /** A persistence set of every other asset's pairs, its figures varying by `shift`. */
    const persistenceSet = (shift: number) => {
      const byAsset = new Map<string, MarketSnapshot[]>();
      for (const s of snapshots) byAsset.set(s.base, [...(byAsset.get(s.base) ?? []), s]);
      const pairs = [...byAsset.values()].filter((_, a) => a % 2 === 0).flatMap((markets) => [...crossVenuePairs(markets)]);
      return PersistenceSet.of(
        through,
        pairs.map(([first, second], i) => [first, second, { since: through - (i % 9) * 3_600_000, sinceSign: 1, median7: (i % 13) + shift, median30: null, stddev7: 1.5, secondPaidMore: 100, firstPaidMore: i % 60, settledHours: 160 }] as const),
      );
    };
    const sums = new Map(snapshots.filter((_, i) => i % 3 === 0).map((s, i) => [marketKey(s.exchange, s.market), { dayApr: i % 11, daySamples: 3, weekApr: 20 + (i % 5), weekSamples: 12 }]));
    const history: MarketHistory = { ...marketHistory, averages: { settled: sums, live: new Map(), weekFrom: 0, dayFrom: 0, to: Number.MAX_SAFE_INTEGER }, persistence: persistenceSet(0), priceBound: 0.05 };
    const sent = vi.spyOn(history.persistence!, "bytes");
    const rank = thread.ranker();

    const first = await rank(snapshots, history);
    expect(differingColumns(first, rankWithHistory(snapshots, history))).toEqual([]);
    const items = itemsOf(first);
    expect(items.some((o) => o.persistence.apr_median_7d !== null) && items.some((o) => o.apr_7d_avg !== null)).toBe(true);
    expect(Object.isFrozen(first.legs[0])).toBe(true);
    // The thread keeps the set: the next round sends none, and ranks with it all the same.
    expect(differingColumns(await rank(snapshots, history), first)).toEqual([]);
    expect(sent).toHaveBeenCalledTimes(1);

    // A new set is sent; so is the set to a thread started anew.
    const next = { ...history, persistence: persistenceSet(5) };
    expect(differingColumns(await rank(snapshots, next), rankWithHistory(snapshots, next))).toEqual([]);
    await thread.close();
    const resent = vi.spyOn(next.persistence!, "bytes");
    expect(differingColumns(await rank(snapshots, next), rankWithHistory(snapshots, next))).toEqual([]);
    expect(resent).toHaveBeenCalledTimes(1);
    // No set: every persistence figure unknown.
    const none = { ...history, persistence: null };
    expect(itemsOf(await rank(snapshots, none)).every((o) => o.persistence.apr_median_7d === null)).toBe(true);
  }, 60_000);

  it("writes the second half of a ranking's rows in shared memory: the set this thread ranks alone", async () => {
    thread = new VenueThread({ fetcherModule });
    // ~76,000 pairs, above the size from which rows are handed over; positive_since places varied.
    const { snapshots, marketHistory } = wideMarket(300);
    const through = Date.UTC(2026, 8, 27, 13);
    const byAsset = new Map<string, MarketSnapshot[]>();
    for (const s of snapshots) byAsset.set(s.base, [...(byAsset.get(s.base) ?? []), s]);
    const pairs = [...byAsset.values()].filter((_, a) => a % 3 !== 0).flatMap((markets) => [...crossVenuePairs(markets)]);
    const persistence = PersistenceSet.of(
      through,
      pairs.map(([first, second], i) => [first, second, { since: i % 4 === 0 ? null : through - (i % 9) * 3_600_000, sinceSign: 1, median7: i % 13, median30: null, stddev7: 1.5, secondPaidMore: 100, firstPaidMore: i % 60, settledHours: 160 }] as const),
    );
    const history: MarketHistory = { ...marketHistory, averages: { settled: new Map(), live: new Map(), weekFrom: 0, dayFrom: 0, to: Number.MAX_SAFE_INTEGER }, persistence, priceBound: 0.05 };
    const alone = rankWithHistory(snapshots, history);
    // The thread started (as a round's fetch starts it) before it is asked.
    await fetchAllVenues(thread.fetcher(undefined, ["okx"]), { timeoutMs: 10_000, venues: ["okx"] });
    const writer = thread.rowWriter();
    const answers: boolean[] = [];
    const watched: RowWriter = {
      start: (rows, from, to) => {
        const written = writer.start(rows, from, to);
        return { wait: () => (answers.push(written.wait()), answers.at(-1)!) };
      },
    };
    const shared = await rankWithHistoryInSlices(snapshots, history, new ColumnSlabs(1, true), 0, watched);
    expect(answers).toEqual([true]);
    expect(differingColumns(shared, alone)).toEqual([]);
    // A thread that does not answer in time: this one writes its rows, and the set is the same.
    const booting = new VenueThread({ fetcherModule });
    const late = await rankWithHistoryInSlices(snapshots, history, new ColumnSlabs(1, true), 0, booting.rowWriter(0));
    await booting.close();
    expect(differingColumns(late, alone)).toEqual([]);
  }, 60_000);

  it("rejects a ranking the thread could not do, with its error", async () => {
    thread = new VenueThread({ fetcherModule });
    const { snapshots, marketHistory } = wideMarket(4);
    const history: MarketHistory = { ...marketHistory, averages: { settled: new Map(), live: new Map(), weekFrom: 0, dayFrom: 0, to: 1 }, persistence: null };
    // A rate that annualises to infinity cannot be stored in the set's columns.
    const broken = snapshots.map((s, i) => (i === 0 ? { ...s, fundingRate: Number.MAX_VALUE } : s));
    await expect(thread.ranker()(broken, history)).rejects.toThrow(/not finite/);
  }, 60_000);
});
