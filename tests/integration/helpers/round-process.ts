// One ingestion round in its own process, for the test that kills a process mid-round:
//   node --import tsx tests/integration/helpers/round-process.ts <postgres url>
// 600 assets on six venues; the test holds the round row locked so the process is killed inside its publishing transaction.
import { openDatabase } from "@/lib/db/open-database";
import { runIngestionRound } from "@/lib/market/ingest/run-ingestion-round";
import { publish as publishSet } from "@/lib/market/opportunities/store";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { VENUE_IDS } from "@/lib/market/model/types";
import { snapshotFetcher } from "./venue-fetchers";

const url = process.argv[2];
if (!url) throw new Error("usage: round-process.ts <postgres url>");
const opened = await openDatabase({ driver: "postgres", url });
const fetcher = snapshotFetcher((venue) =>
  Array.from({ length: 600 }, (_, a) =>
    makeSnapshot({ exchange: venue, base: `K${a}`, fundingRate: 0.0001 * (VENUE_IDS.indexOf(venue) + 1), observedAt: Date.now() }),
  ),
);
console.log("started");
// The first six venues: a round big enough to be killed inside its publishing, as small as that allows.
const venues = VENUE_IDS.slice(0, 6);
// Publishing waits a moment first: at this size the round reaches its publishing transaction within
// a millisecond or two of storing, before the watcher, which locks the round's row as soon as it
// sees the round stored, could take it; it then blocks there as a round held up by the database would.
const publish: typeof publishSet = async (...args) => {
  await new Promise((resolve) => setTimeout(resolve, 500));
  return publishSet(...args);
};
const outcome = await runIngestionRound({ db: opened.db, fetcher, venues, timeoutMs: 10_000, retention: { rawDays: 7, hourlyDays: 730 }, publish });
console.log(`done ${outcome.status}`);
await opened.close();
