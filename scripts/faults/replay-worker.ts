// `npm run worker` as the fault runner needs it: the same scheduler, advisory lock and rounds, but
// every venue answers from its recorded responses (tests/fixtures/venues/venue-replay-table.ts) instead of the network,
// so no exchange is ever contacted. FAULT_PUBLISH_DELAY_MS holds each round for that long between
// aggregating and publishing, which gives the runner a deterministic moment to kill it mid-publish.
//   DATABASE_URL=… INGEST_INTERVAL_MS=… node --import tsx scripts/faults/replay-worker.ts
import { openDatabase } from "@/lib/db/open-database";
import { venueFetcher, type VenueFetcher } from "@/lib/market/venues/fetch-all-venues";
import { readIngestConfig } from "@/lib/market/ingest/ingest-config";
import { IngestionScheduler } from "@/lib/market/ingest/ingestion-scheduler";
import { advisoryRoundLock } from "@/lib/market/ingest/round-lock";
import { runIngestionRound } from "@/lib/market/ingest/run-ingestion-round";
import { publish } from "@/lib/market/opportunities/store";
import { createReplayFetch } from "@/lib/market/venues/replay-fetch";
import { VENUE_REPLAYS } from "@/tests/fixtures/venues/venue-replay-table";
import { onShutdown, runService } from "@/lib/process/run-service";

function replayFetcher(): VenueFetcher {
  // A request without a recording gets a 404 from the replay, never the network.
  return (venue, options) => venueFetcher({ fetchImplementation: createReplayFetch(VENUE_REPLAYS[venue]()).fetchImplementation, enableRateLimit: false })(venue, options);
}

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is required");
  const config = readIngestConfig();
  const publishDelayMs = Number(process.env.FAULT_PUBLISH_DELAY_MS ?? 0);
  const opened = await openDatabase({ driver: "postgres", url });
  const fetcher = replayFetcher();
  const scheduler = new IngestionScheduler({
    db: opened.db,
    lock: advisoryRoundLock(url),
    intervalMs: config.INGEST_INTERVAL_MS,
    log: (line) => console.log(line),
    runRound: () =>
      runIngestionRound({
        db: opened.db,
        fetcher,
        timeoutMs: config.INGEST_VENUE_TIMEOUT_MS,
        retention: { rawDays: config.MARKET_RAW_RETENTION_DAYS, hourlyDays: config.MARKET_HOURLY_RETENTION_DAYS },
        publish: async (...args) => {
          if (publishDelayMs > 0) {
            console.log("publishing after the delay");
            await new Promise((resolve) => setTimeout(resolve, publishDelayMs));
          }
          return publish(...args);
        },
      }),
  });
  scheduler.start();
  console.log(`replay worker running (a round every ${config.INGEST_INTERVAL_MS} ms)`);
  onShutdown(async () => {
    await scheduler.stop();
    await opened.close();
  });
}

void runService(main);
