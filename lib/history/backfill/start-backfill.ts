import type { Db } from "@/lib/db";
import type { IngestionScheduler } from "@/lib/market/ingest/ingestion-scheduler";
import { VENUE_IDS } from "@/lib/market/model/types";
import { historyReader } from "../venues/history-readers";
import { readIngestConfig } from "@/lib/market/ingest/ingest-config";
import { backfillDays } from "./backfill-args";
import { readBackfillConfig } from "./backfill-config";
import { startBackfill } from "./backfill-jobs";

/**
 * The backfill of every venue with a history reader, as the process that owns ingestion runs it
 * (`npm run worker`, or the server on the embedded database or with INGEST_IN_SERVER=1); null when
 * BACKFILL_DISABLED. Between two pages it waits for a round of this process to finish, then lets
 * whatever else is due run first.
 */
export function startServiceBackfill(db: Db, rounds: Pick<IngestionScheduler, "roundFinished">): Promise<{ stop(): Promise<void> } | null> {
  const pause = async () => {
    await rounds.roundFinished();
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
  const config = readBackfillConfig();
  // Months older than the settlement retention would be dropped again by the next retention pass.
  const days = backfillDays(config.BACKFILL_DAYS, readIngestConfig().SETTLEMENT_RETENTION_DAYS);
  return startBackfill({ db, config: { ...config, BACKFILL_DAYS: days }, venues: VENUE_IDS, readerFor: historyReader, pause });
}
