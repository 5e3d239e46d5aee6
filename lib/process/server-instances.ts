import { randomBytes } from "node:crypto";
import type { Db } from "@/lib/db";
import { logger } from "@/lib/observability/logger";
import { processSingleton } from "@/lib/singleton";

/** How often a server writes its heartbeat. */
export const HEARTBEAT_INTERVAL_MS = 3_000;
/** A server whose heartbeat is older than this is no longer counted: three missed beats and a margin. */
export const LIVE_WITHIN_MS = 10_000;
/** Rows of servers gone this long are deleted (a server killed without its shutdown leaves one). */
const FORGET_AFTER_MS = 60 * 60 * 1000;

/**
 * How many API servers run now, as this process last read it: 1 until a heartbeat says otherwise,
 * and always on the embedded database, which one process owns. The rate limiter divides a key's
 * limit by it while Redis is away (lib/ratelimit/fallback-limit.ts).
 */
export function liveServers(): number {
  return liveCount().value;
}

function liveCount(): { value: number } {
  return processSingleton("live-servers", () => ({ value: 1 }));
}

export interface ServerHeartbeat {
  id: string;
  /** Writes one heartbeat and reads the number of live servers (this one included). */
  beat(): Promise<number>;
  /** Stops beating and deletes this server's row, so the others count it out at once. */
  stop(): Promise<void>;
}

export interface ServerHeartbeatOptions {
  intervalMs?: number;
  liveWithinMs?: number;
  /** Whether each beat sets the process's `liveServers()`; tests running several heartbeats in one process turn it off. */
  publish?: boolean;
  log?: (message: string) => void;
}

/**
 * Registers this process as an API server in the shared database (ServerInstance) and keeps its
 * heartbeat fresh. Times are the database's clock (UTC), so servers with skewed clocks agree. A
 * beat that fails (the database away) keeps the last count and is logged once until one succeeds.
 */
export function startServerHeartbeat(db: Db, options: ServerHeartbeatOptions = {}): ServerHeartbeat {
  const id = `${process.pid}-${randomBytes(6).toString("hex")}`;
  const intervalMs = options.intervalMs ?? HEARTBEAT_INTERVAL_MS;
  const liveWithinSeconds = (options.liveWithinMs ?? LIVE_WITHIN_MS) / 1000;
  const log = options.log ?? ((message: string) => logger("servers").warn(message));
  let failing = false;
  let stopped = false;
  let running: Promise<number> | undefined;

  const write = async (): Promise<number> => {
    await db.$executeRaw`
      INSERT INTO "ServerInstance" (id, "startedAt", "heartbeatAt")
      VALUES (${id}, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')
      ON CONFLICT (id) DO UPDATE SET "heartbeatAt" = now() AT TIME ZONE 'UTC'`;
    await db.$executeRaw`
      DELETE FROM "ServerInstance" WHERE "heartbeatAt" < now() AT TIME ZONE 'UTC' - make_interval(secs => ${FORGET_AFTER_MS / 1000})`;
    const [row] = await db.$queryRaw<{ live: number }[]>`
      SELECT count(*)::int AS live FROM "ServerInstance"
      WHERE "heartbeatAt" > now() AT TIME ZONE 'UTC' - make_interval(secs => ${liveWithinSeconds})`;
    return Math.max(1, row?.live ?? 1);
  };

  const beat = async (): Promise<number> => {
    running ??= write().finally(() => (running = undefined));
    const live = await running;
    if (options.publish !== false && !stopped) liveCount().value = live;
    return live;
  };

  const tick = () =>
    beat().then(
      () => {
        if (failing) log("[servers] heartbeat written again");
        failing = false;
      },
      (error: unknown) => {
        if (!failing) log(`[servers] heartbeat failed (${(error as Error).message}); keeping the last count of live servers`);
        failing = true;
      },
    );

  void tick();
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();

  return {
    id,
    beat,
    async stop() {
      stopped = true;
      clearInterval(timer);
      // A beat that fails was logged by `tick` already.
      await running?.catch(() => undefined);
      await db.$executeRaw`DELETE FROM "ServerInstance" WHERE id = ${id}`.catch((error: unknown) =>
        logger("servers").warn({ err: error, server: id }, "deleting this server's heartbeat failed; the others count it out once it is old"),
      );
      if (options.publish !== false) liveCount().value = 1;
    },
  };
}
