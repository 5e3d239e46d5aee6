import type { Db } from "@/lib/db";
import { VENUE_IDS } from "@/lib/market/model/types";
import { historyReader } from "../venues/history-readers";
import { readBackfillConfig } from "./backfill-config";
import { startBackfill } from "./backfill-jobs";

/**
 * The backfill of every venue with a history reader, as the process that owns ingestion runs it
 * (`npm run worker`, or the server on the embedded database or with INGEST_IN_SERVER=1); null when
 * BACKFILL_DISABLED.
 */
export function startServiceBackfill(db: Db): Promise<{ stop(): Promise<void> } | null> {
  return startBackfill({ db, config: readBackfillConfig(), venues: VENUE_IDS, readerFor: historyReader });
}
