// `npm run bench:micro-batch`: where a micro-batch's time goes, in process (no HTTP, no venue).
// A round over every venue × 600 assets (each venue's recorded answers widened, replayed through
// the real connectors, as bench:market does) is published with a week of history behind it; then
// batches in which every market of every streaming venue (STREAM_PROTOCOLS) gets a new mark price
// and funding rate (small random moves), merged as stream messages are (mergeStreamUpdates) and
// pushed to the MicroBatchPublisher, which re-ranks, patches its set, derives events, packs and writes each.
// Each committed batch is then applied as this process's server applies it (LiveOpportunities) and
// the first page of GET /v1/opportunities built from it (order, items' JSON, entity tag). Printed:
// per phase p50/p99 (wall ms; `cpu` is the CPU time the process used per batch, every thread: under
// load the figure that moves least), the process's CPU and heap, the round's own rank and publish as the baseline
// (each batch's total p50 as a ratio to it), the same batches with one venue changing, and batches
// where only the hundred assets listed on the most streaming venues change.
//
// On a private PostgreSQL with default settings (private-postgres.ts) unless DATABASE_URL is set;
// --pglite for an in-memory PGlite.
//
//   node --import tsx scripts/bench/micro-batch.ts [--assets=600] [--batches=20] [--history-hours=24] [--pglite] [--only-all | --only-narrow]
import os from "node:os";
import { directSql } from "@/lib/db/direct-sql";
import { LiveRoundEvents } from "@/lib/events/live-round-events";
import { mergeStreamUpdates } from "@/lib/market/ingest/merge-stream-update";
import { immediateClock, MicroBatchPublisher, type BatchTimings, type PublishedRound } from "@/lib/market/ingest/micro-batch-publisher";
import { runIngestionRound, type RoundStep } from "@/lib/market/ingest/run-ingestion-round";
import { RoundMemory } from "@/lib/market/ingest/round-memory";
import type { MarketSnapshot } from "@/lib/market/model/types";
import { LiveOpportunities } from "@/lib/market/opportunities/live-opportunities";
import { ColumnSlabs } from "@/lib/market/opportunities/opportunity-columns";
import { queryOpportunities } from "@/lib/market/opportunities/opportunity-query";
import { STREAM_PROTOCOLS } from "@/lib/market/venues/streams/stream-protocols";
import type { StreamUpdate } from "@/lib/market/venues/streams/stream-protocol";
import { contentHash } from "@/lib/response-cache/entity-tag";
import { createTestDatabase } from "@/tests/support/test-database";
import { intOption, percentile } from "./bench-args";
import { startPrivatePostgres, type PrivatePostgres } from "./private-postgres";
import { createVenueFetcher } from "./replay-venue-fetcher";
import { seedRoundHistory } from "./round-history-seed";

const assets = intOption("assets", 600);
const batchCount = intOption("batches", 20);
/** Hours of hourly roll-ups behind each market: a day gives the averages every market a week does, seeded in a seventh of the time. */
const historyHours = intOption("history-hours", 24);
const onPglite = process.argv.includes("--pglite");
/** Only the batches where every streaming venue changes (a quicker run, for profiles). */
const onlyAll = process.argv.includes("--only-all");
/** Only the batches where a hundred assets change (the narrow batches most of the live feeds' are). */
const onlyNarrow = process.argv.includes("--only-narrow");
const STALE_AFTER_MS = 180_000;

const PHASES = ["merge", "rank", "patch", "events", "encode", "write", "apply", "serve", "total", "cpu"] as const;
type Phase = (typeof PHASES)[number];
type Sample = Record<Phase, number> & { pairs: number; markets: number; bases: number; bytes: number };

/** A deterministic random in [0, 1). */
function randomFrom(seed: number) {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

/** Publishes batches at once, one at a time: the bench measures a batch's work, not the period. */
const IMMEDIATE = immediateClock();

async function main() {
  let postgres: PrivatePostgres | undefined;
  if (!onPglite && !process.env.DATABASE_URL) {
    postgres = await startPrivatePostgres("fods-bench-micro-batch");
    process.env.DATABASE_URL = postgres.url;
  }
  const where = onPglite ? "in-memory PGlite" : postgres ? "a private PostgreSQL, default settings" : `PostgreSQL at ${new URL(process.env.DATABASE_URL!).host}`;
  console.log(`bench:micro-batch on ${where}; node ${process.version} ${process.execArgv.join(" ")}; load average ${loadAverage()}`);
  const database = await createTestDatabase();
  try {
    await bench(database.db);
  } finally {
    await database.close();
    postgres?.stop();
  }
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
}

async function bench(db: Parameters<typeof runIngestionRound>[0]["db"]) {
  const events = new LiveRoundEvents(5, STALE_AFTER_MS);
  const slabs = new ColumnSlabs();
  const fetcher = createVenueFetcher({ assets });
  const live = new LiveOpportunities(async () => db);
  let timings: BatchTimings | undefined;
  let applyMs = 0;
  let committed: (() => void) | undefined;
  const publisher = new MicroBatchPublisher({
    db,
    periodMs: 0,
    events,
    clock: IMMEDIATE,
    onTimings: (t) => (timings = t),
    onPublished: (batch) => {
      const a0 = performance.now();
      live.applyBatch(batch);
      applyMs = performance.now() - a0;
      committed?.();
    },
  });
  let published: PublishedRound | undefined;
  const steps = new Map<RoundStep, number>();
  const retention = { rawDays: 7, hourlyDays: 30 };
  const round = (now: number, memory?: RoundMemory) =>
    runIngestionRound({
      db,
      fetcher,
      timeoutMs: 30_000,
      retention,
      now: () => now,
      events,
      slabs,
      memory,
      onStep: (step, elapsed) => steps.set(step, elapsed),
      batches: {
        hold: () => publisher.hold(),
        newest: (fresh) => publisher.newest(fresh),
        get version() {
          return publisher.version;
        },
        patchedSince: (version) => publisher.patchedSince(version),
        caughtUp: (ranking, also) => publisher.caughtUp(ranking, also),
        carrying: (set, assets) => publisher.carrying(set, assets),
        roundPublished: (r) => {
          published = r;
          publisher.roundPublished(r);
        },
        release: () => publisher.release(),
      },
    });

  const start = Date.now() - 120_000;
  const first = await round(start);
  console.log(`  first round: ${first.venues.filter((v) => v.status === "ok").length} of ${first.venues.length} venues answered, ${first.opportunities.toLocaleString("en")} opportunities`);
  await seedRoundHistory(db, first.roundId, start, historyHours);
  const memory = new RoundMemory();
  await round(start + 30_000, memory);
  steps.clear();
  const t0 = performance.now();
  const measured = await round(start + 60_000, memory);
  const roundMs = performance.now() - t0;
  if (measured.status !== "published" || !published) throw new Error(`the round did not publish: ${measured.error}`);
  const stepText = [...steps].map(([step, elapsed]) => `${step} ${elapsed.toFixed(0)}`).join(", ");
  const baselineMs = (steps.get("rank") ?? 0) + (steps.get("publish") ?? 0);
  console.log(`  baseline, the round itself: rank ${ms(steps.get("rank"))}, publish ${ms(steps.get("publish"))}; steps (ms) ${stepText}; whole call ${ms(roundMs)}`);
  console.log(`  ${measured.opportunities.toLocaleString("en")} opportunities from ${published.snapshots.length.toLocaleString("en")} markets`);

  live.invalidate();
  await live.current();
  const streaming = new Set(Object.keys(STREAM_PROTOCOLS));
  // Each streaming venue's markets by its own id, as LiveFeeds holds them.
  const feeds = new Map<string, Map<string, MarketSnapshot>>();
  for (const s of published.snapshots) {
    if (!streaming.has(s.exchange)) continue;
    let venue = feeds.get(s.exchange);
    if (!venue) feeds.set(s.exchange, (venue = new Map()));
    venue.set(s.venueMarketId, s);
  }
  const random = randomFrom(7);
  const move = (value: number | null | undefined) => (typeof value === "number" ? Number((value * (1 + (random() - 0.5) * 2e-3)).toPrecision(8)) : undefined);

  /** `assets`: only their markets move (a narrow batch); every market of `venues` without. */
  const runBatches = async (label: string, venues: readonly string[], count: number, assets?: ReadonlySet<string>) => {
    const samples: Sample[] = [];
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    let heapPeak = 0;
    for (let b = 0; b < count; b++) {
      const done = new Promise<void>((resolve) => (committed = resolve));
      const now = Date.now();
      const cpuBefore = process.cpuUsage();
      const m0 = performance.now();
      let markets = 0;
      for (const venue of venues) {
        const held = feeds.get(venue)!;
        const updates: StreamUpdate[] = [];
        for (const s of held.values()) if (!assets || assets.has(s.base)) updates.push({ venueMarketId: s.venueMarketId, fields: { markPrice: move(s.markPrice), fundingRate: move(s.fundingRate) }, venueTime: now });
        const { changed } = mergeStreamUpdates(held, updates, now);
        markets += changed.length;
        publisher.push(changed);
      }
      const merge = performance.now() - m0;
      await done;
      const serve = await serveFirstPage(live);
      const used = process.cpuUsage(cpuBefore);
      const t = timings!;
      samples.push({ merge, rank: t.rank, patch: t.patch, events: t.events, encode: t.encode, write: t.write, apply: applyMs, serve, total: merge + t.total + applyMs + serve, cpu: (used.user + used.system) / 1000, pairs: t.pairs, markets, bases: t.bases, bytes: t.bytes });
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    }
    const wall = performance.now() - wall0;
    const cpu = process.cpuUsage(cpu0);
    const size = samples[0]!;
    console.log(`\n  ${label}: ${count} batches, each ${size.markets.toLocaleString("en")} markets pushed, ${size.bases} assets re-ranked, ${size.pairs.toLocaleString("en")} pairs, a patch of ${(size.bytes / 2 ** 20).toFixed(1)} MB`);
    console.log(`  ${"phase".padEnd(8)} ${"p50 ms".padStart(9)} ${"p99 ms".padStart(9)}`);
    for (const phase of PHASES) {
      const sorted = samples.map((s) => s[phase]).sort((a, b) => a - b);
      console.log(`  ${phase.padEnd(8)} ${percentile(sorted, 50).toFixed(1).padStart(9)} ${percentile(sorted, 99).toFixed(1).padStart(9)}`);
    }
    const totalP50 = percentile(samples.map((s) => s.total).sort((a, b) => a - b), 50);
    console.log(`  total p50 is ${(totalP50 / baselineMs).toFixed(2)}× the round's own rank + publish (${baselineMs.toFixed(0)} ms, the baseline)`);
    console.log(
      `  process CPU ${(((cpu.user + cpu.system) / 1000 / wall) * 100).toFixed(0)} % of a core over ${(wall / 1000).toFixed(1)} s ` +
        `(batches back to back); JS heap peak ${(heapPeak / 2 ** 20).toFixed(0)} MB, RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB; load average ${loadAverage()}`,
    );
  };

  const venues = [...feeds.keys()];
  console.log(`  streaming venues in the round: ${venues.join(", ")}`);
  // A batch as the live feeds make most of them: a hundred assets' funding moved, the set as wide as ever.
  const listings = new Map<string, number>();
  for (const held of feeds.values()) for (const s of held.values()) listings.set(s.base, (listings.get(s.base) ?? 0) + 1);
  const hundred = new Set([...listings].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1)).slice(0, 100).map(([base]) => base));
  const narrow = `the ${hundred.size} assets on the most streaming venues change`;
  if (!onlyNarrow) {
    await runBatches("warm-up", venues, 3);
    await runBatches(`every streaming venue changes (${venues.length})`, venues, batchCount);
    if (!onlyAll) await runBatches("one venue changes (binance)", ["binance"], batchCount);
  } else await runBatches("warm-up", venues, 3, hundred);
  if (!onlyAll) await runBatches(narrow, venues, batchCount, hundred);
  await publisher.stop();
  const patches = await directSql(db).query<{ n: number }>({ text: `SELECT count(*)::int AS n FROM "OpportunityPatch"`, values: [] });
  console.log(`\n  patches written since the round: ${patches[0]?.n}`);
}

/**
 * What the next GET /v1/opportunities after a batch builds from the patched set (default order,
 * first page): the order, the items' JSON and the entity tag. Answers the ms taken.
 */
async function serveFirstPage(live: LiveOpportunities): Promise<number> {
  const t0 = performance.now();
  const snapshot = await live.current();
  const page = queryOpportunities(snapshot, { sort: "-apr", limit: 50, offset: 0 });
  contentHash(snapshot.pageJson(page, { at: Date.now(), staleAfterMs: STALE_AFTER_MS }));
  return performance.now() - t0;
}

function ms(value: number | undefined): string {
  return value === undefined ? "–" : `${value.toFixed(0)} ms`;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
