import type { Db } from "@/lib/db";
import { BatchedRecorder } from "@/lib/process/batched-recorder";

const ONCE_PER_MS = 60_000;

/**
 * Records when keys were last used without a database write per request: at most one update a
 * minute per key, written in batches in the background and flushed on shutdown.
 */
export class LastUsedRecorder extends BatchedRecorder {
  private pending = new Map<string, Date>();
  private readonly lastRecorded = new Map<string, number>();

  constructor(private readonly db: () => Promise<Db>) {
    super("recording last use");
  }

  touch(keyId: string, now = Date.now()): void {
    const last = this.lastRecorded.get(keyId);
    if (last !== undefined && now - last < ONCE_PER_MS) return;
    this.lastRecorded.set(keyId, now);
    this.pending.set(keyId, new Date(now));
  }

  protected async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const ids = [...batch.keys()];
    const times = [...batch.values()].map((d) => d.toISOString());
    try {
      await (await this.db()).$executeRaw`
        UPDATE "ApiKey" SET "lastUsedAt" = used.at::timestamp(3)
        FROM unnest(${ids}::text[], ${times}::text[]) AS used(id, at)
        WHERE "ApiKey".id = used.id AND ("ApiKey"."lastUsedAt" IS NULL OR "ApiKey"."lastUsedAt" < used.at::timestamp(3))`;
    } catch (error) {
      for (const [id, at] of batch) if (!this.pending.has(id)) this.pending.set(id, at); // retried on the next flush
      throw error;
    }
  }
}
