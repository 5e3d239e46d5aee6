// npm run backfill -- [--venues=a,b] [--since=YYYY-MM-DD]: reads the venues' funding history into
// the configured database now, in this process, with a progress bar per venue on a terminal and a
// line per market otherwise. It walks the same cursors as the worker's backfill jobs, so it resumes
// where they (or an interrupted run of its own) stopped, and they resume where it stops; markets
// left failed by the jobs are tried again. Ctrl-C stops between two pages.
import { configuredDatabase } from "@/lib/db";
import { acquireDataDirLock, DataDirLockedError } from "@/lib/db/data-dir-lock";
import { openDatabase } from "@/lib/db/open-database";
import { readBackfillConfig } from "@/lib/history/backfill/backfill-config";
import { BACKFILL_USAGE, parseBackfillArgs } from "@/lib/history/backfill/backfill-args";
import { runCliBackfill } from "@/lib/history/backfill/backfill-cli";
import { httpHistoryIo } from "@/lib/history/backfill/history-http";
import { backfillBudget } from "@/lib/history/backfill/request-budget";
import { HISTORY_READERS, historyReader } from "@/lib/history/venues/history-readers";
import { readIngestConfig } from "@/lib/market/ingest/ingest-config";
import { VENUE_IDS } from "@/lib/market/model/types";

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
  retentionDays: readIngestConfig().SETTLEMENT_RETENTION_DAYS,
});
if (!parsed.ok) {
  console.error(`${parsed.error}\n${BACKFILL_USAGE}`);
  process.exit(2);
}

try {
  const target = configuredDatabase();
  // The embedded database belongs to one process: with the server running this fails, naming it.
  if (target.driver === "pglite" && target.dataDir) acquireDataDirLock(target.dataDir);
  const opened = await openDatabase(target);
  const abort = new AbortController();
  process.once("SIGINT", () => abort.abort());
  try {
    await runCliBackfill({
      db: opened.db,
      ...parsed.args,
      // Every venue named has a reader: the arguments were checked against them.
      readerFor: (venue) => historyReader(venue)!,
      ioFor: (reader) => httpHistoryIo({ budget: backfillBudget(reader.exchange, reader.limits.requestsPerSecond), marketGone: reader.marketGone?.bind(reader) }),
      out: { write: (text) => process.stdout.write(text), isTTY: process.stdout.isTTY === true },
      signal: abort.signal,
    });
  } finally {
    await opened.close();
  }
} catch (error) {
  if (error instanceof DataDirLockedError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
