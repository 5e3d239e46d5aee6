// npm run backfill -- [--venues=a,b] [--since=YYYY-MM-DD]: reads the venues' funding history into
// the configured database now, in this process, with a progress bar per venue on a terminal and a
// line per market otherwise. It walks the same cursors as the worker's backfill jobs, so it resumes
// where they (or an interrupted run of its own) stopped, and they resume where it stops; markets
// left failed by the jobs are tried again. Ctrl-C stops between two pages.
import { configuredDatabase } from "@/lib/db";
import { acquireDataDirLock, DataDirLockedError } from "@/lib/db/data-dir-lock";
import { openDatabase } from "@/lib/db/open-database";
import { readBackfillConfig } from "@/lib/history/backfill/backfill-config";
import { BACKFILL_USAGE, parseBackfillArgs, progressLine } from "@/lib/history/backfill/backfill-args";
import { cursorGroups, latestVenueMarkets, seedCursors } from "@/lib/history/backfill/backfill-store";
import { venueProgress } from "@/lib/history/backfill/backfill-progress";
import { backfillVenue, type BackfillEvent } from "@/lib/history/backfill/backfill-venue";
import { httpHistoryIo } from "@/lib/history/backfill/history-http";
import { venueBudget } from "@/lib/history/backfill/request-budget";
import { HISTORY_READERS, historyReader } from "@/lib/history/venues/history-readers";
import { VENUE_IDS } from "@/lib/market/model/types";
import type { Db } from "@/lib/db";

const argv = process.argv.slice(2);
if (argv.includes("--help") || argv.includes("-h")) {
  console.log(BACKFILL_USAGE);
  process.exit(0);
}
const config = readBackfillConfig();
const parsed = parseBackfillArgs(argv, {
  known: VENUE_IDS,
  withHistory: HISTORY_READERS.map((reader) => reader.exchange).filter((id) => (VENUE_IDS as readonly string[]).includes(id)),
  now: Date.now(),
  defaultDays: config.BACKFILL_DAYS,
});
if (!parsed.ok) {
  console.error(`${parsed.error}\n${BACKFILL_USAGE}`);
  process.exit(2);
}
const { venues, since } = parsed.args;
const tty = process.stdout.isTTY === true;
const BAR = 30;

/** Each venue's line from the cursors: a bar per venue redrawn in place on a terminal. */
async function render(db: Db, drawn: { lines: number }): Promise<string[]> {
  const progress = venueProgress(await cursorGroups(db, Date.now(), venues));
  const lines = venues.map((venue) => {
    const p = progress.get(venue);
    return progressLine(venue, { done: p?.markets_done ?? 0, total: p?.markets_total ?? 0, rows: p?.rows ?? 0 }, tty ? BAR : null);
  });
  if (tty) {
    if (drawn.lines) process.stdout.write(`\x1b[${drawn.lines}A`);
    process.stdout.write(lines.map((line) => `\x1b[2K${line}\n`).join(""));
    drawn.lines = lines.length;
  }
  return lines;
}

try {
  const target = configuredDatabase();
  // The embedded database belongs to one process: with the server running this fails, naming it.
  if (target.driver === "pglite" && target.dataDir) acquireDataDirLock(target.dataDir);
  const opened = await openDatabase(target);
  const abort = new AbortController();
  process.once("SIGINT", () => abort.abort());
  const drawn = { lines: 0 };
  let redraw: NodeJS.Timeout | undefined;
  try {
    console.log(`Backfilling ${venues.join(", ")} from ${new Date(since).toISOString().slice(0, 10)}`);
    const now = Date.now();
    for (const venue of venues) await seedCursors(opened.db, await latestVenueMarkets(opened.db, venue), now);
    if (tty) redraw = setInterval(() => void render(opened.db, drawn), 500);
    const onEvent = (event: BackfillEvent) => {
      if (tty || event.kind === "page") return;
      const detail = event.kind === "retry" || event.kind === "failed" ? `: ${event.error}` : "";
      console.log(`${event.market.exchange} ${event.market.market} ${event.kind}${detail}`);
    };
    const results = await Promise.all(
      venues.map((venue) => {
        const reader = historyReader(venue)!;
        const io = httpHistoryIo({ budget: venueBudget(venue, reader.limits.requestsPerSecond, config.BACKFILL_RATE_SHARE) });
        return backfillVenue({ db: opened.db, reader, io, since, withFailed: true, signal: abort.signal, onEvent });
      }),
    );
    clearInterval(redraw);
    const lines = await render(opened.db, drawn);
    if (!tty) for (const line of lines) console.log(line);
    const inserted = results.reduce((sum, r) => sum + r.inserted, 0);
    console.log(
      abort.signal.aborted
        ? `Stopped: ${inserted.toLocaleString("en-US")} settlements stored; run again to resume.`
        : `${inserted.toLocaleString("en-US")} settlements stored. Markets that failed wait for a retry (the worker's jobs, or another run).`,
    );
  } finally {
    clearInterval(redraw);
    await opened.close();
  }
} catch (error) {
  if (error instanceof DataDirLockedError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
