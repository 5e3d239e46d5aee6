import { describe, expect, it } from "vitest";
import type { Db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { JobRunner } from "@/lib/jobs/job-runner";
import { BACKFILL_QUEUE, backfillWorker, ensureBackfillJobs } from "@/lib/history/backfill/backfill-jobs";
import { cursorGroups, seedCursors } from "@/lib/history/backfill/backfill-store";
import { backfillVenue, type BackfillEvent } from "@/lib/history/backfill/backfill-venue";
import { venueProgress } from "@/lib/history/backfill/backfill-progress";
import { runCliBackfill } from "@/lib/history/backfill/backfill-cli";
import type { HistoryIo, HistoryMarket, HistoryPage, VenueHistoryReader } from "@/lib/history/history-types";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";
import { httpHistoryIo } from "@/lib/history/backfill/history-http";
import { RequestBudget } from "@/lib/history/backfill/request-budget";

// The backfill over fake venue readers (pages held in memory) into a real database: a run killed
// between two pages, or with a page in flight, resumes without a gap or a duplicate; a market the
// venue does not know is delisted, a failing one retried later; the jobs walk every venue's markets.

const H = 3_600_000;
const DAY = 24 * H;
// The next full hour: the job queue's own times (a job's runAt) are the database's clock, so a job
// rescheduled from NOW on is not due again while the test runs.
const NOW = Math.ceil(Date.now() / H) * H;
const SINCE = NOW - 10 * DAY;
const database = testDatabaseForFile();

const market = (exchange: string, base: string): HistoryMarket => ({ exchange, market: `${base}/USDT:USDT`, venueMarketId: `${base}USDT`, base });
const noIo: HistoryIo = { getJson: () => Promise.reject(new Error("no network in tests")), postJson: () => Promise.reject(new Error("no network in tests")) };

/** Hourly settlements from `since`, then 4-hourly from `switchAt` on: the venue states no interval. */
function schedule(since: number, until: number, switchAt = Infinity): number[] {
  const times: number[] = [];
  for (let t = since; t <= until; t += t >= switchAt ? 4 * H : H) times.push(t + (times.length % 3)); // ms jitter
  return times;
}

interface FakeVenue {
  reader: VenueHistoryReader;
  calls: { market: string; cursor: string | null }[];
}

/**
 * A venue walking forward by page number, 50 settlements a page, over each market's `series`;
 * `hangAt` makes the given call never answer (the process dies with it in flight), `failOnce`
 * makes a market's first call fail, a market absent from `series` is unknown to the venue.
 */
function fakeVenue(exchange: string, series: Map<string, number[]>, options: { hangAt?: number; failOnce?: Set<string>; ignoresRange?: boolean } = {}): FakeVenue {
  const calls: FakeVenue["calls"] = [];
  const failed = new Set<string>();
  const reader: VenueHistoryReader = {
    exchange,
    limits: { pageSize: 50, maxDepthDays: null, pagination: "page-number", requestsPerSecond: 10, source: "test" },
    async readPage(_io, m, range, cursor): Promise<HistoryPage> {
      calls.push({ market: m.market, cursor });
      if (options.hangAt === calls.length) return new Promise<never>(() => undefined);
      if (options.failOnce?.has(m.market) && !failed.has(m.market)) {
        failed.add(m.market);
        throw new AppError("VENUE_UNAVAILABLE", "answered 502");
      }
      const times = series.get(m.market);
      if (!times) throw new AppError("NOT_FOUND", "answered 404");
      // A venue that ignores the range pages its whole history, newest first (HTX, MEXC).
      const inRange = options.ignoresRange ? [...times].reverse() : times.filter((t) => t >= range.since && t <= range.until);
      const page = Number(cursor ?? 0);
      const slice = inRange.slice(page * 50, page * 50 + 50);
      // Newest first, as several venues answer.
      return { settlements: slice.reverse().map((time) => ({ time, rate: 0.0001, intervalHours: null })), next: (page + 1) * 50 < inRange.length ? String(page + 1) : null };
    },
  };
  return { reader, calls };
}

async function settlementTimes(db: Db, exchange: string, m: string): Promise<number[]> {
  const rows = await db.fundingRate.findMany({ where: { exchange, market: m }, orderBy: { time: "asc" }, select: { time: true } });
  return rows.map((row) => row.time.getTime());
}

describe("the funding-history backfill", () => {
  it("resumes a run killed between two pages, and one killed with a page in flight, without gap or duplicate", async () => {
    const db = database.db;
    const btc = market("kill", "BTC");
    const eth = market("kill", "ETH");
    const series = new Map([
      [btc.market, schedule(SINCE, NOW, NOW - 3 * DAY)],
      [eth.market, schedule(SINCE + 5 * DAY, NOW)],
    ]);
    // The live rounds already recorded two of BTC's settlements: they stand, and are not counted as backfilled.
    const observed = series.get(btc.market)!.slice(100, 102);
    await db.fundingRate.createMany({ data: observed.map((t) => ({ exchange: "kill", market: btc.market, base: "BTC", time: new Date(t), rate: 0.0002, intervalHours: 1, source: "observed" })) });
    await seedCursors(db, [btc, eth], NOW);

    // First run: killed after its third stored page (the process state is dropped, nothing awaited);
    // each page of 50 is stored on its own.
    const first = fakeVenue("kill", series);
    const abort = new AbortController();
    let pages = 0;
    const onEvent = (event: BackfillEvent) => {
      if (event.kind === "stored" && (pages += event.pages) === 3) abort.abort();
    };
    const run1 = await backfillVenue({ db, reader: first.reader, io: noIo, since: SINCE, now: () => NOW, signal: abort.signal, onEvent, storeRows: 50 });
    expect(run1).toMatchObject({ pages: 3, interrupted: true });
    expect(await settlementTimes(db, "kill", btc.market)).toHaveLength(150);

    // Second run: dies with its second page in flight (that page is never stored).
    const second = fakeVenue("kill", series, { hangAt: 2 });
    void backfillVenue({ db, reader: second.reader, io: noIo, since: SINCE, now: () => NOW, storeRows: 50 });
    await expect.poll(() => second.calls.length).toBe(2);
    // It read BTC's last page (the fourth) and died asking ETH's first.
    expect(second.calls).toEqual([{ market: btc.market, cursor: "3" }, { market: eth.market, cursor: null }]);
    await expect.poll(async () => (await db.backfillCursor.findUniqueOrThrow({ where: { exchange_market: { exchange: "kill", market: btc.market } } })).status).toBe("done");

    // Third run, from the stored cursors alone: asks the page that was in flight again, and nothing of BTC.
    const third = fakeVenue("kill", series);
    const run3 = await backfillVenue({ db, reader: third.reader, io: noIo, since: SINCE, now: () => NOW });
    expect(run3.interrupted).toBe(false);
    expect(third.calls).toEqual([null, "1", "2"].map((cursor) => ({ market: eth.market, cursor })));

    for (const m of [btc, eth]) {
      const expected = series.get(m.market)!;
      expect(await settlementTimes(db, "kill", m.market)).toEqual(expected);
    }
    const cursors = await db.backfillCursor.findMany({ where: { exchange: "kill" }, orderBy: { market: "asc" } });
    const btcCursor = cursors.find((c) => c.market === btc.market)!;
    expect(btcCursor).toMatchObject({ status: "done", rows: series.get(btc.market)!.length - 2, walkSince: null, pageCursor: null, coveredSince: new Date(SINCE), coveredUntil: new Date(NOW) });
    expect(btcCursor.oldestSettlement?.getTime()).toBe(series.get(btc.market)![0]);
    expect(cursors.find((c) => c.market === eth.market)).toMatchObject({ status: "done", rows: series.get(eth.market)!.length });
    // Backfilled rows say so, with the interval derived from their times; the observed ones stand.
    const rows = await db.fundingRate.findMany({ where: { exchange: "kill", market: btc.market }, orderBy: { time: "asc" } });
    expect(rows.filter((r) => r.source === "observed").map((r) => r.time.getTime())).toEqual(observed);
    expect(rows.filter((r) => r.source === "backfill")).toHaveLength(btcCursor.rows);
    expect(rows[1]!.intervalHours).toBe(1);
    expect(rows.at(-1)!.intervalHours).toBe(4);
    // The change from hourly to 4-hourly joined the interval history, once, from history.
    const changes = await db.fundingIntervalChange.findMany({ where: { exchange: "kill" } });
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ market: btc.market, fromHours: 1, toHours: 4, source: "history" });

    // Run again: nothing left to read, nothing written twice.
    const fourth = fakeVenue("kill", series);
    expect(await backfillVenue({ db, reader: fourth.reader, io: noIo, since: SINCE, now: () => NOW })).toMatchObject({ pages: 0, inserted: 0 });
    expect(fourth.calls).toEqual([]);
  });

  it("stores a walk's pages together: at storeRows settlements, after a second, at the walk's end; a kill loses only pages not yet stored", async () => {
    const db = database.db;
    const sol = market("batched", "SOL");
    const series = new Map([[sol.market, schedule(SINCE, NOW)]]); // 241 settlements: 5 pages of 50
    await seedCursors(db, [sol], NOW);
    const stored = (events: BackfillEvent[]) => events.flatMap((e) => (e.kind === "stored" ? [e.pages] : []));

    // Killed with two pages read and the third in flight: nothing of them was stored, the cursor stands.
    const killed = fakeVenue("batched", series, { hangAt: 3 });
    const killedEvents: BackfillEvent[] = [];
    void backfillVenue({ db, reader: killed.reader, io: noIo, since: SINCE, now: () => NOW, onEvent: (e) => killedEvents.push(e) });
    await expect.poll(() => killed.calls.length).toBe(3);
    expect(stored(killedEvents)).toEqual([]);
    expect(await settlementTimes(db, "batched", sol.market)).toEqual([]);
    expect(await db.backfillCursor.findUniqueOrThrow({ where: { exchange_market: { exchange: "batched", market: sol.market } } })).toMatchObject({ status: "pending", pageCursor: null, rows: 0 });

    // The next run reads those pages again; its clock moves 400 ms a request, so the first four pages
    // are stored once the first has waited a second, and the last when the walk ends.
    let clock = NOW;
    const next = fakeVenue("batched", series);
    const read = next.reader.readPage.bind(next.reader);
    next.reader.readPage = (...args) => ((clock += 400), read(...args));
    const events: BackfillEvent[] = [];
    const run = await backfillVenue({ db, reader: next.reader, io: noIo, since: SINCE, now: () => clock, onEvent: (e) => events.push(e) });
    expect(run).toMatchObject({ pages: 5, inserted: 241, interrupted: false });
    expect(next.calls.map((c) => c.cursor)).toEqual([null, "1", "2", "3", "4"]);
    expect(stored(events)).toEqual([4, 1]);
    expect(await settlementTimes(db, "batched", sol.market)).toEqual(series.get(sol.market));

    // Deeper, on a still clock: the walk's five pages are stored once they hold 120 settlements (three pages), then at its end.
    const deeper = new Map([[sol.market, schedule(SINCE - 10 * DAY, NOW)]]);
    const again: BackfillEvent[] = [];
    await backfillVenue({ db, reader: fakeVenue("batched", deeper).reader, io: noIo, since: SINCE - 10 * DAY, now: () => clock, storeRows: 120, onEvent: (e) => again.push(e) });
    expect(stored(again)).toEqual([3, 2]);
    expect(await settlementTimes(db, "batched", sol.market)).toEqual(deeper.get(sol.market));
    expect(await db.backfillCursor.findUniqueOrThrow({ where: { exchange_market: { exchange: "batched", market: sol.market } } })).toMatchObject({ status: "done", rows: deeper.get(sol.market)!.length, coveredSince: new Date(SINCE - 10 * DAY) });
  });

  it("marks delisted, once and with the venue's reason, a market the venue answers it does not know, and done one it answers empty", async () => {
    const db = database.db;
    const [known, unknown, empty] = [market("bybit-like", "BTC"), market("bybit-like", "GONE"), market("bybit-like", "NEW")];
    await seedCursors(db, [known, unknown, empty], NOW);
    // Bybit's unknown-symbol answer comes with a 200 (bybit-exchange.github.io/docs/v5/error: 10001).
    const refusal = { retCode: 10001, retMsg: "params error: symbol invalid", result: {}, retExtInfo: {}, time: NOW };
    const calls: string[] = [];
    const answer = (async (url: string) => {
      const symbol = new URL(url).searchParams.get("symbol")!;
      calls.push(symbol);
      if (symbol === "GONEUSDT") return new Response(JSON.stringify(refusal), { status: 200 });
      const times = symbol === "BTCUSDT" ? schedule(NOW - DAY, NOW) : [];
      return new Response(JSON.stringify({ retCode: 0, result: { list: times.map((t) => ({ fundingRateTimestamp: String(t), fundingRate: "0.0001" })) } }), { status: 200 });
    }) as unknown as typeof fetch;
    const reader: VenueHistoryReader = {
      exchange: "bybit-like",
      limits: { pageSize: 200, maxDepthDays: null, pagination: "single-page", requestsPerSecond: 100, source: "test" },
      marketGone: (body) => {
        const b = body as { retCode?: unknown; retMsg?: unknown };
        return b.retCode === 10001 && String(b.retMsg).includes("symbol") ? `retCode 10001 ${String(b.retMsg)}` : null;
      },
      async readPage(io, m) {
        const body = (await io.getJson(`https://venue.test/history?symbol=${m.venueMarketId}`)) as { result: { list: { fundingRateTimestamp: string; fundingRate: string }[] } };
        return { settlements: body.result.list.map((r) => ({ time: Number(r.fundingRateTimestamp), rate: Number(r.fundingRate), intervalHours: null })), next: null };
      },
    };
    const io = httpHistoryIo({ budget: new RequestBudget(1_000, 1_000), fetch: answer, marketGone: reader.marketGone });
    const events: string[] = [];
    const run = await backfillVenue({ db, reader, io, since: NOW - 2 * DAY, now: () => NOW, onEvent: (e) => events.push(`${e.kind} ${e.market.base}${e.kind === "delisted" ? `: ${e.reason}` : ""}`) });
    expect(run.failed).toBe(false);
    expect(events).toContain("delisted GONE: venue.test answered 200: retCode 10001 params error: symbol invalid");
    const cursor = (m: HistoryMarket) => db.backfillCursor.findUniqueOrThrow({ where: { exchange_market: { exchange: "bybit-like", market: m.market } } });
    expect(await cursor(unknown)).toMatchObject({ status: "delisted", attempts: 0, lastError: "venue.test answered 200: retCode 10001 params error: symbol invalid" });
    expect(await cursor(empty)).toMatchObject({ status: "done", attempts: 0, lastError: `bybit-like answered no settlement of NEWUSDT since ${new Date(NOW - 2 * DAY).toISOString()}` });
    expect(await cursor(known)).toMatchObject({ status: "done", lastError: null, rows: schedule(NOW - DAY, NOW).length });
    expect(venueProgress(await cursorGroups(db, NOW, ["bybit-like"])).get("bybit-like")).toMatchObject({ state: "done", markets_done: 3, markets_delisted: 1, markets_total: 3 });
    // Asked once each, and never again: not 8 retries, not a new walk.
    expect(calls.sort()).toEqual(["BTCUSDT", "GONEUSDT", "NEWUSDT"]);
    await backfillVenue({ db, reader, io, since: NOW - 2 * DAY, now: () => NOW + 60_000 });
    expect(calls).toHaveLength(3);
  });

  it("finishes a market the venue does not know, retries a failing one later, and reports progress", async () => {
    const db = database.db;
    const [ok, gone, flaky] = [market("mixed", "SOL"), market("mixed", "GONE"), market("mixed", "XRP")];
    const series = new Map([
      [ok.market, schedule(NOW - 2 * DAY, NOW)],
      [flaky.market, schedule(NOW - 2 * DAY, NOW)],
    ]);
    await seedCursors(db, [ok, gone, flaky], NOW);
    const venue = fakeVenue("mixed", series, { failOnce: new Set([flaky.market]) });
    const events: string[] = [];
    // GONE, SOL, XRP in turn: the failure ends the run.
    const run = await backfillVenue({ db, reader: venue.reader, io: noIo, since: SINCE, now: () => NOW, random: () => 0, onEvent: (e) => events.push(`${e.kind} ${e.market.base}`) });
    expect(run.failed).toBe(true);
    expect(events).toContain("delisted GONE");
    expect(events).toContain("retry XRP");
    const flakyCursor = await db.backfillCursor.findUniqueOrThrow({ where: { exchange_market: { exchange: "mixed", market: flaky.market } } });
    expect(flakyCursor).toMatchObject({ status: "pending", attempts: 1, lastError: "answered 502", nextAttemptAt: new Date(NOW + 15_000) });
    expect(venueProgress(await cursorGroups(db, NOW, ["mixed"])).get("mixed")).toEqual({
      state: "retrying", markets_done: 2, markets_delisted: 1, markets_total: 3, rows: series.get(ok.market)!.length, oldest_settlement: new Date(series.get(ok.market)![0]!).toISOString(),
    });

    // Before its retry time the market is left alone; after it, it is read, and the delisted one is not asked again.
    const before = venue.calls.length;
    await backfillVenue({ db, reader: venue.reader, io: noIo, since: SINCE, now: () => NOW + 10_000 });
    expect(venue.calls.length).toBe(before);
    await backfillVenue({ db, reader: venue.reader, io: noIo, since: SINCE, now: () => NOW + 15_000 });
    expect(venue.calls.slice(before).every((call) => call.market === flaky.market)).toBe(true);
    expect(venueProgress(await cursorGroups(db, NOW + 15_000, ["mixed"])).get("mixed")).toMatchObject({ state: "done", markets_done: 3 });
  });

  it("reaches back to a deeper since through a venue paging newest first whatever the range", async () => {
    const db = database.db;
    const dot = market("newest-first", "DOT");
    const series = new Map([[dot.market, schedule(NOW - 8 * DAY, NOW)]]);
    await seedCursors(db, [dot], NOW);
    const venue = fakeVenue("newest-first", series, { ignoresRange: true });
    await backfillVenue({ db, reader: venue.reader, io: noIo, since: NOW - 2 * DAY, now: () => NOW });
    expect((await settlementTimes(db, "newest-first", dot.market))[0]).toBe(series.get(dot.market)!.find((t) => t >= NOW - 2 * DAY));
    // Deeper: the walk [8 days ago, 2 days ago] passes the newer pages first.
    await backfillVenue({ db, reader: venue.reader, io: noIo, since: NOW - 8 * DAY, now: () => NOW });
    expect(await settlementTimes(db, "newest-first", dot.market)).toEqual(series.get(dot.market));
    expect(await db.backfillCursor.findUniqueOrThrow({ where: { exchange_market: { exchange: "newest-first", market: dot.market } } })).toMatchObject({
      status: "done", coveredSince: new Date(NOW - 8 * DAY), rows: series.get(dot.market)!.length,
    });
  });

  it("reads no further page while its pause holds (a live round running in the process)", async () => {
    const db = database.db;
    const ada = market("paused", "ADA");
    const series = new Map([[ada.market, schedule(NOW - 5 * DAY, NOW)]]);
    await seedCursors(db, [ada], NOW);
    const venue = fakeVenue("paused", series);
    let release!: () => void;
    const round = new Promise<void>((resolve) => (release = resolve));
    let pauses = 0;
    const run = backfillVenue({ db, reader: venue.reader, io: noIo, since: SINCE, now: () => NOW, pause: () => (++pauses === 1 ? round : Promise.resolve()) });
    await expect.poll(() => pauses).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(venue.calls).toHaveLength(1);
    release();
    expect(await run).toMatchObject({ pages: 3, interrupted: false });
    expect(venue.calls).toHaveLength(3);
  });

  it("runs as one job per venue in the job queue, seeded from the venue's latest round", async () => {
    const db = database.db;
    const round = await db.ingestionRound.create({ data: { startedAt: new Date(NOW - 60_000), status: "published" } });
    const snapshot = (exchange: string, base: string) => ({
      roundId: round.id, exchange, market: `${base}/USDT:USDT`, venueMarketId: `${base}USDT`, base, venueBase: base, contractMultiplier: 1,
      quote: "USDT", settle: "USDT", observedAt: new Date(NOW - 60_000),
    });
    await db.roundSnapshot.createMany({ data: [snapshot("jobs-a", "BTC"), snapshot("jobs-a", "ETH"), snapshot("jobs-b", "BTC")] });
    const series = new Map([
      ["BTC/USDT:USDT", schedule(NOW - 3 * DAY, NOW - H)],
      ["ETH/USDT:USDT", schedule(NOW - 3 * DAY, NOW - H)],
    ]);
    const venues = new Map([
      ["jobs-a", fakeVenue("jobs-a", series)],
      ["jobs-b", fakeVenue("jobs-b", series)],
      // No round has listed its markets yet.
      ["jobs-c", fakeVenue("jobs-c", series)],
    ]);
    const config = { BACKFILL_DAYS: 2, BACKFILL_DISABLED: false };
    const options = { db, config, venues: ["jobs-a", "jobs-b", "no-history"], readerFor: (e: string) => venues.get(e)?.reader, ioFor: () => noIo, now: () => NOW };
    await ensureBackfillJobs(db, ["jobs-a", "jobs-b", "jobs-c"]);
    await ensureBackfillJobs(db, ["jobs-a", "jobs-b", "jobs-c"]);
    expect(await db.job.count({ where: { queue: BACKFILL_QUEUE } })).toBe(3);
    const failures: unknown[] = [];
    const runner = new JobRunner({ db, workers: [backfillWorker(options)], pollMs: 60_000, log: (line, error) => failures.push(error ?? line) });
    runner.start();
    await runner.idle();
    await runner.stop();
    expect(failures).toEqual([]);
    const progress = venueProgress(await cursorGroups(db, NOW, ["jobs-a", "jobs-b"]));
    expect(progress.get("jobs-a")).toMatchObject({ state: "done", markets_done: 2, markets_total: 2, rows: 2 * (2 * 24 + 1) - 2 });
    expect(progress.get("jobs-b")).toMatchObject({ state: "done", markets_total: 1 });
    // Each venue's job stays, due a day later to catch up forward; the venue without markets yet looks again in a minute.
    const jobs = await db.job.findMany({ where: { queue: BACKFILL_QUEUE }, orderBy: { id: "asc" } });
    expect(jobs.map((job) => job.runAt.getTime())).toEqual([NOW + DAY, NOW + DAY, NOW + 60_000]);
    expect(venues.get("jobs-c")!.calls).toEqual([]);
  });

  it("runs from the CLI with a line per market off a terminal, and bars redrawn in place on one", async () => {
    const db = database.db;
    const round = await db.ingestionRound.create({ data: { startedAt: new Date(NOW - 30_000), status: "published" } });
    const snapshot = (exchange: string, base: string) => ({
      roundId: round.id, exchange, market: `${base}/USDT:USDT`, venueMarketId: `${base}USDT`, base, venueBase: base, contractMultiplier: 1,
      quote: "USDT", settle: "USDT", observedAt: new Date(NOW - 30_000),
    });
    await db.roundSnapshot.createMany({ data: [snapshot("cli-plain", "BTC"), snapshot("cli-plain", "GONE"), snapshot("cli-tty", "BTC")] });
    const series = new Map([["BTC/USDT:USDT", schedule(NOW - 4 * DAY, NOW - H)]]);
    const venues = new Map([
      ["cli-plain", fakeVenue("cli-plain", series).reader],
      ["cli-tty", fakeVenue("cli-tty", series).reader],
    ]);
    const run = async (venue: string, isTTY: boolean) => {
      let text = "";
      const slow = venues.get(venue)!;
      // On the terminal pages take a moment, so the bars are drawn while they come.
      const reader: VenueHistoryReader = { ...slow, readPage: async (...args) => (isTTY && (await new Promise((r) => setTimeout(r, 30))), slow.readPage(...args)) };
      const result = await runCliBackfill({ db, venues: [venue], since: NOW - 10 * DAY, readerFor: () => reader, ioFor: () => noIo, out: { write: (t) => void (text += t), isTTY }, now: () => NOW, redrawMs: 10 });
      return { text, result };
    };
    const plain = await run("cli-plain", false);
    expect(plain.text.split("\n")).toEqual([
      `Backfilling cli-plain from ${new Date(NOW - 10 * DAY).toISOString().slice(0, 10)}`,
      "cli-plain BTC/USDT:USDT done",
      "cli-plain GONE/USDT:USDT delisted",
      "cli-plain: 2/2 markets, 96 rows",
      "96 settlements stored. Markets that failed wait for a retry (the worker's jobs, or another run).",
      "",
    ]);
    const tty = await run("cli-tty", true);
    expect(tty.result.inserted).toBe(96);
    // Redrawn over itself (cursor up one line, line cleared), ending full.
    expect(tty.text).toContain("\x1b[1A\x1b[2K[");
    expect(tty.text).toContain(`\x1b[2K[${"#".repeat(30)}] 100% cli-tty: 1/1 markets, 96 rows\n`);
    expect(tty.text).not.toContain("BTC/USDT:USDT done");
  });
});
