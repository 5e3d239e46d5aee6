import { z } from "zod";

const flag = z.enum(["", "0", "1", "true", "false"]).transform((v) => v === "1" || v === "true");
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const schema = z.object({
  INGEST_INTERVAL_MS: positiveInt(60_000),
  INGEST_DISABLED: flag.default(false),
  INGEST_IN_SERVER: flag.default(false),
  INGEST_VENUE_TIMEOUT_MS: positiveInt(10_000),
  MARKET_RAW_RETENTION_DAYS: positiveInt(7),
  MARKET_HOURLY_RETENTION_DAYS: positiveInt(730),
});

export type IngestConfig = z.infer<typeof schema>;

/** The ingestion settings (README "Configuration"); a bad value stops start-up naming the variable. */
export function readIngestConfig(source: NodeJS.ProcessEnv = process.env): IngestConfig {
  const present = Object.fromEntries(Object.keys(schema.shape).map((k) => [k, source[k] || undefined]));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return parsed.data;
}
