import pg from "pg";
import { logger } from "@/lib/observability/logger";

/** Who may run the next round: one holder at a time across every process sharing the database. */
export interface RoundLock {
  tryAcquire(): Promise<boolean>;
  release(): Promise<void>;
  close(): Promise<void>;
}

/** An arbitrary constant: the advisory lock id every worker agrees on for "an ingestion round". */
export const INGESTION_LOCK_ID = 5_101_700_001;

/**
 * PostgreSQL session advisory lock on a dedicated connection. Session locks belong to a connection,
 * so it cannot come from Prisma's pool (a release could land on another connection); and a worker
 * that dies drops its connection, which frees the lock without anyone's help.
 */
export function advisoryRoundLock(url: string, lockId = INGESTION_LOCK_ID): RoundLock {
  let client: pg.Client | undefined;
  let held = false;
  const connection = async () => {
    if (!client) {
      const fresh = new pg.Client({ connectionString: url, application_name: "fods-ingestion-lock" });
      fresh.on("error", (error) => {
        logger("ingest").error({ err: error }, "ingestion lock connection lost");
        if (client === fresh) client = undefined;
        held = false;
      });
      await fresh.connect();
      client = fresh;
    }
    return client;
  };
  return {
    async tryAcquire() {
      const { rows } = await (await connection()).query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [lockId]);
      held = rows[0]?.locked === true;
      return held;
    },
    async release() {
      if (!held || !client) return;
      held = false;
      await client.query("SELECT pg_advisory_unlock($1)", [lockId]);
    },
    async close() {
      const open = client;
      client = undefined;
      held = false;
      await open?.end();
    },
  };
}

/** Embedded PGlite has one process by construction (the data-directory lock), so a flag suffices. */
export function inProcessRoundLock(): RoundLock {
  let held = false;
  return {
    async tryAcquire() {
      if (held) return false;
      held = true;
      return true;
    },
    async release() {
      held = false;
    },
    async close() {
      held = false;
    },
  };
}
