import pg from "pg";
import { logger } from "@/lib/observability/logger";
import { EVENT_LOG_CHANNEL, eventsAppended } from "./append-events";

const log = logger("events");

const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

/**
 * On PostgreSQL, events another process appended (a worker's round, another server's sandbox tick)
 * wake this process's stream feed and webhook dispatcher at once, as its own appends do: one
 * connection LISTENs on the log's channel and passes each notification to `eventsAppended()`.
 * Without it they would wait for the next poll (STREAM_POLL_MS, WEBHOOK_POLL_MS), half a second
 * or more, where the push targets are a quarter of one. A lost connection is opened again with
 * backoff; the polls carry on meanwhile, so nothing is missed, only later.
 */
export function listenForAppendedEvents(databaseUrl: string): { stop: () => Promise<void> } {
  let client: pg.Client | undefined;
  let stopped = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    const connection = new pg.Client({ connectionString: databaseUrl });
    client = connection;
    connection.on("notification", () => eventsAppended().notify());
    connection.on("error", (error) => reconnect(connection, error));
    connection.on("end", () => reconnect(connection, new Error("the connection ended")));
    try {
      await connection.connect();
      await connection.query(`LISTEN ${EVENT_LOG_CHANNEL}`);
      failures = 0;
    } catch (error) {
      reconnect(connection, error);
    }
  };

  const reconnect = (connection: pg.Client, error: unknown) => {
    if (stopped || client !== connection) return;
    client = undefined;
    connection.removeAllListeners();
    // The connection is being dropped for `error`, logged below; how its end fails adds nothing.
    connection.end().catch(() => undefined);
    const delay = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]!;
    failures += 1;
    log.error({ err: error, retryInMs: delay }, `listening for appended events failed; again in ${delay} ms`);
    retry = setTimeout(() => void connect(), delay);
    retry.unref();
  };

  void connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const connection = client;
      client = undefined;
      connection?.removeAllListeners();
      await connection?.end().catch((error: unknown) => log.warn({ err: error }, "closing the connection listening for appended events failed"));
    },
  };
}
