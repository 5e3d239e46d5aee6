// `npm run worker`: the ingestion rounds without a web server, for PostgreSQL deployments (any
// number of workers may run; an advisory lock gives each round to one of them). With no
// DATABASE_URL it runs against the embedded database, which only works while no server owns it.
// SIGTERM/SIGINT let a round in progress finish, then exit.
import { readEventsConfig } from "@/lib/config/events-config";
import { configuredDatabase, openServiceDatabase } from "@/lib/db";
import { startSandboxTicks } from "@/lib/events/sandbox-ticks";
import { readIngestConfig } from "@/lib/market/ingest/ingest-config";
import { startIngestion } from "@/lib/market/ingest/start-ingestion";
import { onShutdown, runService } from "@/lib/process/run-service";

async function main() {
  const config = readIngestConfig();
  if (config.INGEST_DISABLED) {
    console.log("INGEST_DISABLED is set: the worker has nothing to do.");
    return;
  }
  const target = configuredDatabase();
  const opened = await openServiceDatabase();
  if (opened.appliedMigrations.length) console.log(`Applied migrations: ${opened.appliedMigrations.join(", ")}`);
  const scheduler = await startIngestion({ db: opened.db, target, config });
  // The sandbox's events too: servers write them as well, and each tick is claimed once.
  const sandboxTicks = startSandboxTicks(opened.db, readEventsConfig());
  console.log(`Ingestion worker running (${target.driver}, a round every ${config.INGEST_INTERVAL_MS} ms)`);

  onShutdown(async (signal) => {
    console.log(`${signal}: finishing the current round, then stopping`);
    sandboxTicks.stop();
    await scheduler.stop().catch((error) => console.error("stopping ingestion failed", error));
    await opened.close().catch((error) => console.error("closing the database failed", error));
  });
}

void runService(main);
