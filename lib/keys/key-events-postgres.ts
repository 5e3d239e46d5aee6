import pg from "pg";
import type { KeyChange } from "./key-change";
import { logger } from "@/lib/observability/logger";

const log = logger("keys");

/** PostgreSQL's channel for key changes (an identifier: no dash, lower case). */
export const KEY_CHANGES_CHANNEL = "fods_key_changes";
const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

export interface PostgresKeyChanges {
  /** Resolves once LISTEN is in force, or the first attempt failed (it is retried meanwhile). */
  ready: Promise<void>;
  /** Sends a change to every other process listening; rejects when this connection is down. */
  notify(change: KeyChange): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Key changes over PostgreSQL's LISTEN/NOTIFY, which every server already reaches: revocations,
 * rolls, allowlist edits and tier changes arrive in every process within milliseconds whether or
 * not Redis is up. One connection per process listens and notifies; changes from `processId`
 * itself are skipped (they were delivered in-process). A lost connection is opened again with
 * backoff; a change sent meanwhile is bounded by the verifier's cache lifetime.
 */
export function listenForKeyChanges(databaseUrl: string, processId: string, deliver: (change: KeyChange) => void): PostgresKeyChanges {
  let client: pg.Client | undefined;
  let listening = false;
  let stopped = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  let firstAttempt!: () => void;
  const ready = new Promise<void>((resolve) => (firstAttempt = resolve));

  const connect = async () => {
    const connection = new pg.Client({ connectionString: databaseUrl });
    client = connection;
    connection.on("notification", (message) => {
      if (message.channel !== KEY_CHANGES_CHANNEL || !message.payload) return;
      let parsed: { from: string; change: KeyChange };
      try {
        parsed = JSON.parse(message.payload) as { from: string; change: KeyChange };
      } catch {
        return; // not one of ours: anyone connected may NOTIFY the channel
      }
      if (parsed.from !== processId) deliver(parsed.change);
    });
    connection.on("error", (error) => reconnect(connection, error));
    connection.on("end", () => reconnect(connection, new Error("the connection ended")));
    try {
      await connection.connect();
      await connection.query(`LISTEN ${KEY_CHANGES_CHANNEL}`);
      if (client !== connection) {
        // Stopped (or replaced) while connecting: this connection is nobody's.
        connection.removeAllListeners();
        connection.on("error", () => undefined);
        await connection.end().catch((error: unknown) => log.warn({ err: error }, "closing a connection for key changes nobody listens on failed"));
        return;
      }
      if (failures > 0) log.warn("[key-events] listening for key changes on PostgreSQL again");
      listening = true;
      failures = 0;
    } catch (error) {
      reconnect(connection, error);
    } finally {
      firstAttempt();
    }
  };

  const reconnect = (connection: pg.Client, error: unknown) => {
    if (stopped || client !== connection) return;
    client = undefined;
    listening = false;
    connection.removeAllListeners();
    connection.on("error", () => undefined); // a late error of the closed connection is not news
    connection.end().catch(() => undefined); // nor is its failing to end: the outage is logged below
    const delay = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]!;
    // Once per outage: the retries that follow say nothing until one succeeds.
    if (failures === 0) log.warn({ err: error }, `[key-events] listening for key changes on PostgreSQL failed (${(error as Error).message}); retrying`);
    failures += 1;
    retry = setTimeout(() => void connect(), delay);
    retry.unref();
  };

  void connect();
  return {
    ready,
    async notify(change) {
      const connection = client;
      if (!connection || !listening) throw new Error("not connected to PostgreSQL");
      await connection.query("SELECT pg_notify($1, $2)", [KEY_CHANGES_CHANNEL, JSON.stringify({ from: processId, change })]);
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const connection = client;
      client = undefined;
      connection?.removeAllListeners();
      connection?.on("error", () => undefined);
      await connection?.end().catch((error: unknown) => log.warn({ err: error }, "closing the connection for key changes failed"));
    },
  };
}
