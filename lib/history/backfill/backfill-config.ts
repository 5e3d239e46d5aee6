import { z } from "zod";
import { flag, positiveInt, readSettings } from "@/lib/config/settings";

const schema = z.object({
  /** How far back the jobs backfill each market, in days (the CLI's --since reaches further). */
  BACKFILL_DAYS: positiveInt(365),
  BACKFILL_DISABLED: flag.default(false),
});

export type BackfillConfig = z.infer<typeof schema>;

/** The backfill settings (README "Configuration"); a bad value stops start-up naming the variable. */
export function readBackfillConfig(source: NodeJS.ProcessEnv = process.env): BackfillConfig {
  return readSettings(schema, source);
}
