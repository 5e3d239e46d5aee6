// `npm run bench:market`: the market layer's performance targets.
//   1. A whole ingestion round over every venue × 600 assets: each venue's recorded answers widened
//      to 600 synthetic assets (widen-replays.ts) and replayed in place of the network, then parsed
//      by the real connectors, stored, ranked with the stored history and published, by the round's
//      own function (runIngestionRound), with part of the venues fetched and parsed on a second
//      thread as `npm run worker` does (VenueThread; --alternate alternates the rounds with rounds
//      on one thread and prints both), and half of each ranking's rows written there as a worker
//      without the live feeds writes them (VenueThread.rowWriter); target < 1 s from the start to the new set's commit. What
//      the round does after publishing (folding the observations into the hourly history,
//      retention) is printed apart, as are the fetch-and-parse phase and the peak memory. The rounds
//      keep a RoundMemory as a server does; the first after the history is seeded has nothing in it
//      and reads everything back, as a server's first round after starting does: it is printed apart.
//      The six spot venues' widened replays are fetched on the second thread once the perp set is
//      committed, as rounds ask them, and their carry set ranked and stored after it, timed apart
//      (--no-spot leaves both out). Each step's CPU is printed too, by thread and database (core-time.ts),
//      with the collections that stopped the round's thread (gc-pauses.ts) and the machine's speed
//      before and after the rounds (machine-speed.ts), to compare runs made at different moments.
//   2. The 30-day funding history of one market with 10 million FundingRate rows stored, through
//      the same Prisma query GET /v1/funding-rates makes; target p99 < 20 ms on PostgreSQL. Run in
//      a child process with a server's node flags, as a server answers it, on a scratch database of its own.
// With DATABASE_URL (postgres://…) it runs on a scratch database created on that server and
// dropped afterwards; without, on an in-memory PGlite with fewer rows (it says so), or with
// --on-disk on a PGlite data directory in a temporary folder, as the embedded server stores it.
//
// `npm run bench:market` gives node the flags `npm run worker` has (market-flags.test.ts): the
// collector's share of a round depends on them. Run directly, it says which it ran with.
//
//   node --max-semi-space-size=64 --import tsx scripts/bench/market.ts [--assets=600] [--rows=10000000] [--queries=250] [--rounds=10] [--alternate] [--alternate-slices] [--on-disk] [--no-spot] [--cpu-prof=DIR] [--mark-rounds]
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import type { Db } from "@/lib/db";
import { openDatabase, type OpenDatabase } from "@/lib/db/open-database";
import { directSql } from "@/lib/db/direct-sql";
import { ensureSettlementPartitions } from "@/lib/history/store/settlement-partitions";
import { fetchAllVenues, type VenueFetcher } from "@/lib/market/venues/fetch-all-venues";
import { RoundMemory } from "@/lib/market/ingest/round-memory";
import { ColumnSlabs } from "@/lib/market/opportunities/opportunity-columns";
import { LiveOpportunities, type AppliedRound } from "@/lib/market/opportunities/live-opportunities";
import { runIngestionRound, type RoundStep } from "@/lib/market/ingest/run-ingestion-round";
import { LiveRoundEvents } from "@/lib/events/live-round-events";
import { carryRound } from "@/lib/market/ingest/carry-round";
import type { SpotLegsListener } from "@/lib/market/ingest/spot-round";
import { PairPersistenceStore } from "@/lib/market/persistence/pair-persistence-store";
import { VenueThread } from "@/lib/market/ingest/venue-thread";
import { VENUE_IDS } from "@/lib/market/model/types";
import { createTestDatabase } from "@/tests/support/test-database";
import { createVenueFetcher } from "./replay-venue-fetcher";
import { intOption, nodeFlagsOf, percentile } from "./bench-args";
import { loopStretches } from "./loop-stretches";
import { memorySampler } from "./memory-sampler";
import { gcPauses, type GcPauses } from "./gc-pauses";
import { machineSpeedInChild } from "./machine-speed";
import { coreTimeBetween, coreTimes, type CoreUser } from "./core-time";
import { seedRoundHistory } from "./round-history-seed";
import { profileTables, summariseProfile } from "./profile-summary";

const TARGET_ROUND_MS = 1_000;
const TARGET_P99_MS = 20;
const HOUR = 3_600_000;

const serverUrl = process.env.DATABASE_URL;
const onPostgres = Boolean(serverUrl);
const onDisk = !onPostgres && process.argv.includes("--on-disk");
/** Set on the child process that runs part 2 alone (see main). */
const historyOnly = process.argv.includes("--history-only");
const rows = intOption("rows", onPostgres ? 10_000_000 : 200_000);
const queries = intOption("queries", 250);
const rounds = intOption("rounds", 10);
const assets = intOption("assets", 600);
/** Alternate the measured rounds between the worker's two threads and this thread alone, printing both. */
const alternate = process.argv.includes("--alternate");
/**
 * Alternate the measured rounds between the round's steps in slices (as a server runs them) and
 * each at once (a slice longer than the round), printing both: what the slicing costs the round.
 */
const alternateSlices = process.argv.includes("--alternate-slices");
/** Rounds without the spot venues and their carry set, as INGEST_SPOT=off runs them: what those add to a round. */
const withoutSpot = process.argv.includes("--no-spot");
/** A `ROUND n` line before each measured round and `ROUND END` after the last, for reading V8's --trace-opt output by round (compiler-time.ts). */
const markRounds = process.argv.includes("--mark-rounds");
/** Profile the round's thread over the measured rounds alone and print where its time went. */
const cpuProfileDir = process.argv.find((a) => a.startsWith("--cpu-prof="))?.slice("--cpu-prof=".length);

const ms = (value: number) => `${value.toFixed(1)} ms`;

async function benchRound(db: Db) {
  // As `npm run worker` fetches: part of the venues on a second thread (VenueThread), which
  // replays the same widened answers; with --alternate, every other round on this thread alone.
  const ownThread = createVenueFetcher({ assets });
  const thread = new VenueThread({
    fetcherModule: new URL("./replay-venue-fetcher.ts", import.meta.url).href,
    spotFetcherModule: new URL("./replay-spot-fetcher.ts", import.meta.url).href,
    fetcherOptions: { assets },
  });
  const twoThreads = thread.fetcher(ownThread, VENUE_IDS);
  const fetcherOf = (round: number) => (alternate && round % 2 === 1 ? ownThread : twoThreads);
  const retention = { rawDays: 7, hourlyDays: 30 };
  const steps = new Map<RoundStep, number[]>();
  // When each step ended: the event loop's long stretches are put down to the step they ended in.
  const stepEnds: { step: RoundStep; at: number }[] = [];
  // And the CPU each step took of the machine's cores: this thread's, the process's other threads', the database's.
  const stepCores = new Map<RoundStep, Map<CoreUser, number>>();
  let coresAt = coreTimes();
  const onStep = (step: RoundStep, elapsed: number) => {
    steps.set(step, [...(steps.get(step) ?? []), elapsed]);
    stepEnds.push({ step, at: performance.now() });
    const now = coreTimes();
    if (coresAt && now) stepCores.set(step, coreTimeBetween(coresAt, now));
    coresAt = now;
  };
  let publishedAt = 0;
  // And as a server takes it: its in-memory set lists and groups the round's rows
  // (LiveOpportunities), on the round's thread, so the event loop's stretches below include them.
  const live = new LiveOpportunities(async () => db);
  const onPublished = (published: AppliedRound) => {
    publishedAt = performance.now();
    return live.applyRound(published);
  };
  // The rounds write their change events as a server's do: deriving them is part of the round.
  const events = new LiveRoundEvents(5, 180_000);
  // As a server keeps it: what its rounds stored, so the next need not read it back. Made after the
  // history is seeded (which no round wrote), so the next round reads everything back, as a
  // server's first round after starting does; it is timed apart, and the median is of those after.
  // As a server keeps it too: the memory of the ranked sets' columns, each set's reused by the next but one.
  // Shared, as a worker's are without the live feeds: its venue thread writes half of each ranking's rows.
  const slabs = new ColumnSlabs(1, true);
  const rowWriter = thread.rowWriter();
  // Every leg held to a price bound as live rounds are (PAIR_PRICE_BOUND), at 2, which no two
  // positive prices exceed: the widened replays clone each venue's BTC at its recording's price (from
  // 17,000 to 120,000), which a bound of 5 % would mostly leave out; at 2 every asset's prices are
  // still sorted and checked, the work of a live round whose venues agree, and every pair is ranked.
  const priceBound = 2;
  // The spot venues' widened replays too, fetched on the second thread once the perp set is
  // committed, as `npm run worker` does with INGEST_SPOT on.
  const spotFetcher = thread.spotFetcher({});
  // And their carry set, ranked and stored with its events after the perp set, as a round with
  // INGEST_SPOT on does (carryRound): timed from the spot legs' hand-over to its commit.
  let carryItems = 0;
  const carryTimes: number[] = [];
  // And from the perp set's commit to the carry set's, the spot venues' fetch included (they are asked once the perp set is committed).
  const carryAfterPublish: number[] = [];
  // Each pair's persistence, as a worker's rounds attach it: computed for the rounds' hour once the
  // history is seeded (below), and attached to the rounds from then on.
  const persistence = new PairPersistenceStore(db);
  let attached: PairPersistenceStore | undefined = undefined;
  const publishCarry = carryRound({ db, events, persistence, priceBound, onPublished: (published) => void (carryItems = published.columns.count) });
  const onSpotLegs: SpotLegsListener = async (spots, perps, at, legHistory) => {
    const t0 = performance.now();
    await publishCarry(spots, perps, at, legHistory);
    carryTimes.push(performance.now() - t0);
    carryAfterPublish.push(performance.now() - publishedAt);
  };
  // As a worker reloads them, after each round (the replays' lists fall due only in a run of over ten minutes).
  const reloadMarketLists = () => thread.reloadMarketLists();
  const round = (now: number, memory?: RoundMemory, fetcher: VenueFetcher = twoThreads, sliceMs?: number) =>
    runIngestionRound({ db, fetcher, timeoutMs: 30_000, retention, now: () => now, onStep, onPublished, events, memory, slabs, rowWriter, sliceMs, priceBound, persistence: attached, reloadMarketLists, ...(!withoutSpot && { spotFetcher, onSpotLegs }) });
  // Warm-up: ccxt's exchange modules load, and the first round has no previous one to derive
  // settlements from; each measured round then compares with the one before, as live rounds do.
  // The rounds' clock: from five minutes into the hour before this one, so no round after the
  // warm-up crosses an hour (up to 50 rounds), where a round starts computing the next hour's pair
  // persistence in the background, as a worker does once an hour.
  const start = Math.floor(Date.now() / HOUR) * HOUR - HOUR + 5 * 60_000;
  const first = await round(start - 60_000);
  const ok = first.venues.filter((v) => v.status === "ok");
  console.log(`  ${ok.length} of ${first.venues.length} venues answered; ${first.opportunities} opportunities`);
  const spotOk = first.spotVenues?.filter((v) => v.status === "ok") ?? [];
  console.log(`  spot: ${spotOk.length} of ${first.spotVenues?.length ?? 0} venues answered, ${spotOk.reduce((sum, v) => sum + v.legs, 0)} spot legs, ${spotOk.reduce((sum, v) => sum + v.borrow_rates, 0)} with a borrow rate`);
  for (const v of first.venues) if (v.status !== "ok") console.log(`  ${v.exchange} stale: ${v.error ?? ""}`);
  const markets = await db.roundSnapshot.groupBy({ by: ["exchange"], where: { roundId: first.roundId }, _count: true });
  const counts = markets.map((m) => m._count).sort((a, b) => a - b);
  console.log(`  markets per venue: ${counts[0]} to ${counts.at(-1)}, ${counts.reduce((a, b) => a + b, 0)} in all`);

  if (alternate) {
    // This thread's own clients for the second thread's venues load their market lists too.
    await round(start - 45_000, undefined, ownThread);
  }
  await seedRoundHistory(db, first.roundId, start - 60_000);
  const computing = performance.now();
  await persistence.refresh(new Date(start));
  attached = persistence;
  const pairs = (await persistence.current())?.size ?? 0;
  console.log(`  pair persistence computed for the rounds' hour over the seeded history: ${pairs.toLocaleString("en")} pairs in ${((performance.now() - computing) / 1000).toFixed(1)} s`);
  const memory = new RoundMemory();
  const coldStart = performance.now();
  await round(start - 30_000, memory);
  const cold = publishedAt - coldStart;

  const modes = alternate ? ["two threads", "one thread"] : alternateSlices ? ["in slices", "at once"] : ["two threads"];
  const measured = new Map(
    modes.map((mode) => [
      mode,
      { round: [] as number[], whole: [] as number[], fetch: [] as number[], steps: new Map<RoundStep, number[]>(), cores: new Map<string, number[]>(), cpu: [] as number[], others: [] as number[], gc: [] as GcPauses[], longest: [] as number[], stretches: new Map<string, number[]>() },
    ]),
  );
  carryTimes.length = 0;
  carryAfterPublish.length = 0;
  const walBefore = onPostgres ? await walWritten(db) : undefined;
  const speedBefore = machineSpeedInChild();
  const sampler = memorySampler();
  const gc = gcPauses();
  const profiler = cpuProfileDir ? await startProfile() : undefined;
  for (let i = 0; i < rounds; i++) {
    const m = measured.get(modes[i % modes.length]!)!;
    steps.clear();
    stepEnds.length = 0;
    stepCores.clear();
    coresAt = coreTimes();
    if (markRounds) console.log(`ROUND ${i}`);
    const t1 = performance.now();
    const probe = loopStretches();
    const outcome = await round(start + i * 60_000, memory, fetcherOf(i), alternateSlices && i % 2 === 1 ? Infinity : undefined);
    const loop = probe.stop();
    m.longest.push(loop.maxMs);
    for (const s of loop.stretches) {
      const step = stepEnds.find((e) => e.at >= s.endedAt)?.step ?? "after publishing";
      m.stretches.set(step, [...(m.stretches.get(step) ?? []), s.ms]);
    }
    m.round.push(publishedAt - t1);
    m.gc.push(gc.between(t1, publishedAt));
    m.whole.push(performance.now() - t1);
    for (const [step, [elapsed]] of steps) m.steps.set(step, [...(m.steps.get(step) ?? []), elapsed!]);
    for (const [step, users] of stepCores) for (const [user, cpu] of users) m.cores.set(`${step} ${user}`, [...(m.cores.get(`${step} ${user}`) ?? []), cpu]);
    // Every core's time from the fetch to the commit, all three users: what the round asked of the machine.
    if (stepCores.size > 0) {
      const roundCores = [...stepCores].filter(([step]) => step !== "fold");
      m.cpu.push(roundCores.reduce((sum, [, users]) => sum + [...users.values()].reduce((a, b) => a + b, 0), 0));
      m.others.push(roundCores.reduce((sum, [, users]) => sum + (users.get("other threads") ?? 0), 0));
    }
    if (outcome.status !== "published") throw new Error(`round ${i} failed: ${outcome.error}`);
  }
  if (markRounds) console.log("ROUND END");
  const peak = sampler.stop();
  const walAfter = walBefore && (await walWritten(db));
  if (profiler) await profiler.stop(cpuProfileDir!);
  // Fetch and parse alone, after the rounds rather than before each: a round right after it paid
  // for collecting its answers (17 MB of text and their parsed trees), which no live round does
  // (between rounds a worker only waits), so measuring it there would slow the round's fetch step.
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await fetchAllVenues(fetcherOf(i), { timeoutMs: 30_000 });
    measured.get(modes[i % modes.length]!)!.fetch.push(performance.now() - t0);
  }
  await thread.close();
  gc.stop();
  const speedAfter = machineSpeedInChild();
  console.log(`  change events written by the measured rounds: ${(await db.marketEvent.count()).toLocaleString("en")}`);
  const median = (list: number[]) => percentile([...list].sort((a, b) => a - b), 50);
  for (const [mode, m] of measured) {
    const total = median(m.round);
    const fetch = median(m.fetch);
    console.log(`  ${mode}, median of ${m.round.length}: fetch and parse (replayed, alone) ${ms(fetch)}, store → publish ${ms(total - fetch)}`);
    console.log(`  steps (median): ${[...m.steps].map(([step, times]) => `${step} ${ms(median(times))}`).join(", ")}`);
    if (m.cores.size > 0) {
      const users: CoreUser[] = ["main thread", "other threads", "postgres"];
      const byStep = [...m.steps.keys()].map((step) => `${step} ${users.map((user) => median(m.cores.get(`${step} ${user}`) ?? [0]).toFixed(0)).join(" / ")}`);
      console.log(`  CPU by step (median ms of the round's thread / the process's other threads / the local PostgreSQL; 10 ms ticks): ${byStep.join(", ")}`);
    }
    console.log(`  round (fetch → publish): ${ms(total)}  target < ${TARGET_ROUND_MS} ms  ratio ${(total / TARGET_ROUND_MS).toFixed(2)}  ${total < TARGET_ROUND_MS ? "MET" : "MISSED"}`);
    // In the order run: the first rounds after the cold one are slower (code not yet optimised, compiled on the process's other threads meanwhile), a major collection slows the round it lands in.
    console.log(`  rounds in order: ${m.round.map((t) => t.toFixed(0)).join(", ")} ms (fastest ${Math.min(...m.round).toFixed(0)}, slowest ${Math.max(...m.round).toFixed(0)})`);
    // The venue thread's venues, and V8's helpers: compiling optimised code (--trace-opt counted ~300
    // functions a round in the first rounds after the cold one, ~40 from the sixth) and marking.
    if (m.others.length > 0) console.log(`  the process's other threads' CPU in those rounds, fetch → publish: ${m.others.map((t) => t.toFixed(0)).join(", ")} ms`);
    if (m.cpu.length > 0) {
      // A round cannot take less than its CPU over the machine's cores: the share of them it kept busy says how much faster packing could make it.
      const cpu = median(m.cpu);
      console.log(`  CPU a round takes, fetch → publish (median; the round's thread, the process's other threads and the local PostgreSQL): ${cpu.toFixed(0)} ms, ${(cpu / total).toFixed(2)} of ${os.cpus().length} cores busy over the median round`);
    }
    // A collection stops the round's thread: the young generation's (scavenges) every round, the whole heap's every few.
    const majors = m.gc.flatMap((pauses, i) => (pauses.major.count > 0 ? [`${i + 1} (${ms(pauses.major.ms)})`] : []));
    console.log(`  the round's thread stopped for collections, fetch → publish: ${ms(median(m.gc.map((p) => p.minor.ms)))} a round in ${median(m.gc.map((p) => p.minor.count))} scavenges (median); whole-heap collections in rounds ${majors.join(", ") || "none"}`);
    const over = [...m.stretches].map(([step, list]) => `${step} ${list.length} (longest ${ms(Math.max(...list))})`);
    console.log(`  event loop: longest stretch without a turn during a round ${ms(median(m.longest))} (median of rounds; max ${ms(Math.max(...m.longest))}); stretches over 50 ms, all rounds, by step: ${over.join(", ") || "none"}`);
    console.log(`  after publishing: the fold into the hourly history and retention, ${ms(median(m.whole) - total)} (the whole call ${ms(median(m.whole))})`);
  }
  if (alternate) {
    const [two, one] = [...measured.values()].map((m) => median(m.round));
    console.log(`  two threads against one, rounds alternated: ratio ${(two! / one!).toFixed(2)}`);
  }
  if (alternateSlices) {
    const [sliced, atOnce] = [...measured.values()].map((m) => median(m.round));
    console.log(`  in slices against at once, rounds alternated: ratio ${(sliced! / atOnce!).toFixed(2)}`);
  }
  const carryMedian = median(carryTimes);
  if (!withoutSpot) {
    console.log(`  the carry set after the perp set's publish (spot legs handed over → committed with its events), median of ${carryTimes.length}: ${ms(carryMedian)}, ${carryItems.toLocaleString("en")} items`);
    console.log(`  the carry set committed after the perp set (the spot venues' fetch and parse, then the above), median: ${ms(median(carryAfterPublish))}`);
  }
  console.log(`  the first round after starting, which reads back what earlier rounds stored: ${ms(cold)}`);
  if (walBefore && walAfter) {
    // What a replica or a WAL archive receives: the whole round, the fold after publishing and the carry set included.
    const perRound = (key: keyof WalTotals) => (walAfter[key] - walBefore[key]) / rounds;
    console.log(`  WAL a round writes (pg_stat_wal, the whole cluster): ${(perRound("bytes") / 2 ** 20).toFixed(1)} MB (${perRound("fullPageImages").toFixed(0)} full-page images, ${perRound("syncs").toFixed(0)} syncs)`);
  }
  // What the same fixed work took here before and after the rounds: set it beside another run's to compare machines or moments.
  console.log(`  this machine's speed (machine-speed.ts, a fixed slice of a round's work; lower is faster): ${ms(speedBefore)} before the rounds, ${ms(speedAfter)} after`);
  // RSS is the process's, both threads; the heap is this thread's.
  console.log(`  peak memory: RSS ${(peak.rss / 2 ** 20).toFixed(0)} MB (both threads), JS heap ${(peak.heap / 2 ** 20).toFixed(0)} MB (the round's thread)`);
}

interface WalTotals {
  bytes: number;
  fullPageImages: number;
  syncs: number;
}

/** The cluster's WAL written so far (PostgreSQL 14+): the bench's database is the only one at work on a private server. */
async function walWritten(db: Db): Promise<WalTotals> {
  const [row] = await directSql(db).query<{ bytes: string; fpi: string; syncs: string }>({ text: `SELECT wal_bytes::text AS bytes, wal_fpi::text AS fpi, wal_sync::text AS syncs FROM pg_stat_wal`, values: [] });
  return { bytes: Number(row!.bytes), fullPageImages: Number(row!.fpi), syncs: Number(row!.syncs) };
}

async function startProfile() {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  return {
    async stop(dir: string) {
      const { profile } = await session.post("Profiler.stop");
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `bench-market-${process.pid}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
      console.log(`  the round's thread over the measured rounds (${file}):`);
      for (const line of profileTables(summariseProfile(file, { root: process.cwd(), top: 30 }))) console.log(line);
    },
  };
}

async function seedHistory(db: Db): Promise<{ markets: number; hours: number; end: number }> {
  const markets = onPostgres ? 2_000 : 200;
  const hours = Math.ceil(rows / markets);
  const end = Math.floor(Date.now() / HOUR) * HOUR;
  const start = end - (hours - 1) * HOUR;
  const started = performance.now();
  // Into their month partitions, as the live rounds store them (lib/history/store/settlement-partitions.ts).
  await ensureSettlementPartitions(directSql(db), start, end);
  // Server-side generation in market batches (one statement each, in primary-key order so the
  // index grows at its right edge): minutes for 10 million rows instead of hours of round trips.
  const batch = Math.max(1, Math.floor(markets / 20));
  for (let m = 0; m < markets; m += batch) {
    const last = Math.min(markets, m + batch) - 1;
    await db.$executeRawUnsafe(
      `INSERT INTO "FundingRate" (exchange, market, base, time, rate, "intervalHours", source)
       SELECT 'v' || (m % 20), 'A' || lpad((m / 20)::text, 4, '0') || '/USDT:USDT', 'A' || lpad((m / 20)::text, 4, '0'),
              to_timestamp(${start / 1000} + h * 3600) AT TIME ZONE 'UTC', (random() - 0.4) * 0.001, 1, 'observed'
       FROM generate_series(${m}, ${last}) AS m, generate_series(0, ${hours - 1}) AS h
       ORDER BY 1, 2, 4`,
    );
    process.stdout.write(`\r  seeding: ${Math.round(((last + 1) / markets) * 100)} %`);
  }
  await db.$executeRawUnsafe(`ANALYZE "FundingRate"`);
  const count = await db.fundingRate.count();
  console.log(`\r  seeded ${count.toLocaleString("en")} rows (${markets} markets × ${hours} hourly settlements) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { markets, hours, end };
}

async function benchHistory(db: Db) {
  const { markets, hours, end } = await seedHistory(db);
  const windowHours = 30 * 24;
  let seed = 42;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const query = async () => {
    const m = Math.floor(random() * markets);
    const exchange = `v${m % 20}`;
    const market = `A${String(Math.floor(m / 20)).padStart(4, "0")}/USDT:USDT`;
    const to = end - Math.floor(random() * Math.max(1, hours - windowHours)) * HOUR;
    const t0 = performance.now();
    const found = await db.fundingRate.findMany({
      where: { exchange, market, time: { gte: new Date(to - windowHours * HOUR), lte: new Date(to) } },
      orderBy: { time: "asc" },
    });
    return { elapsed: performance.now() - t0, rows: found.length };
  };
  for (let i = 0; i < 20; i++) await query(); // warm-up: connections, plan cache
  const times: number[] = [];
  let returned = 0;
  for (let i = 0; i < queries; i++) {
    const { elapsed, rows: n } = await query();
    times.push(elapsed);
    returned += n;
  }
  times.sort((a, b) => a - b);
  const p99 = percentile(times, 99);
  console.log(`  ${queries} queries, ${Math.round(returned / queries)} rows each on average`);
  console.log(`  p50 ${ms(percentile(times, 50))}  p90 ${ms(percentile(times, 90))}  p99 ${ms(p99)}  max ${ms(times.at(-1) ?? Number.NaN)}`);
  console.log(`  p99 target < ${TARGET_P99_MS} ms${onPostgres ? "" : " (a PostgreSQL target; this is PGlite)"}  ratio ${(p99 / TARGET_P99_MS).toFixed(2)}  ${p99 < TARGET_P99_MS ? "MET" : "MISSED"}`);
  const plan = await db.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
    `EXPLAIN SELECT * FROM "FundingRate" WHERE exchange = 'v1' AND market = 'A0001/USDT:USDT'
       AND time >= now() - interval '30 days' ORDER BY time`,
  );
  console.log(`  plan: ${plan.map((r) => r["QUERY PLAN"].trim()).join(" | ")}`);
}

async function main() {
  const where = onPostgres
    ? `PostgreSQL (scratch database on ${new URL(serverUrl!).host})`
    : `embedded PGlite (no DATABASE_URL${onDisk ? ", a data directory on disk" : ", in memory"}): ${rows.toLocaleString("en")} history rows instead of 10 million; set DATABASE_URL for the PostgreSQL figures`;
  const flags = process.execArgv.join(" ");
  console.log(historyOnly ? `\n(part 2, in a process with a server's node flags: ${flags})` : `bench:market on ${where}\nnode flags: ${flags}`);
  const dataDir = onDisk ? mkdtempSync(path.join(os.tmpdir(), "fods-bench-market-")) : undefined;
  let database: OpenDatabase;
  try {
    database = dataDir ? await openDatabase({ driver: "pglite", dataDir }) : await createTestDatabase();
  } catch (error) {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  try {
    if (historyOnly) {
      console.log(`\n2. 30-day history of one market among ${rows.toLocaleString("en")} FundingRate rows`);
      await benchHistory(database.db);
    } else {
      console.log(`\n1. A whole round over ${VENUE_IDS.length} venues × ${assets} assets, fetch replayed`);
      await benchRound(database.db);
    }
  } finally {
    await database.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
  if (!historyOnly) await historyInServerProcess();
}

/**
 * Part 2 in a process of its own with a server's node flags (`npm run serve`): GET /v1/funding-rates
 * is a server's query, and a server's small young generation answers it faster than the
 * worker's large one, which suits the rounds' parsing instead.
 */
async function historyInServerProcess() {
  const scripts = (JSON.parse(readFileSync(path.join(import.meta.dirname, "../../package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  const args = [...nodeFlagsOf(scripts, "serve"), "--import", "tsx", import.meta.filename, ...process.argv.slice(2), "--history-only"];
  const child = spawn(process.execPath, args, { stdio: "inherit" });
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`part 2 (the history query) exited with ${code}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
