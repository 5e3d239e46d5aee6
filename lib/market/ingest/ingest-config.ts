import { z } from "zod";
import { flag, positiveInt, readSettings } from "@/lib/config/settings";

const schema = z.object({
  INGEST_INTERVAL_MS: positiveInt(60_000),
  INGEST_DISABLED: flag.default(false),
  INGEST_IN_SERVER: flag.default(false),
  INGEST_VENUE_TIMEOUT_MS: positiveInt(10_000),
  // The micro-batch period: legs the live feeds change are published at most this often (micro-batch-publisher.ts).
  PUBLISH_BATCH_MS: positiveInt(1_000),
  MARKET_RAW_RETENTION_DAYS: positiveInt(7),
  MARKET_HOURLY_RETENTION_DAYS: positiveInt(730),
  // Unset: settlements are the product's history and are kept. Set: whole months older than it go.
  SETTLEMENT_RETENTION_DAYS: z.coerce.number().int().positive().optional(),
});

export type IngestConfig = z.infer<typeof schema>;

/** The ingestion settings (README "Configuration"); a bad value stops start-up naming the variable. */
export function readIngestConfig(source: NodeJS.ProcessEnv = process.env): IngestConfig {
  return readSettings(schema, source);
}
