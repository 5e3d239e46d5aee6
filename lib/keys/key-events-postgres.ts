import { listenOnChannel } from "@/lib/db/listen-channel";
import { logger } from "@/lib/observability/logger";
import type { KeyChange } from "./key-change";

const log = logger("keys");

/** PostgreSQL's channel for key changes (an identifier: no dash, lower case). */
export const KEY_CHANGES_CHANNEL = "fods_key_changes";

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
  const listener = listenOnChannel({
    databaseUrl,
    channel: KEY_CHANGES_CHANNEL,
    onNotification(payload) {
      if (!payload) return;
      let parsed: { from: string; change: KeyChange };
      try {
        parsed = JSON.parse(payload) as { from: string; change: KeyChange };
      } catch {
        return; // not one of ours: anyone connected may NOTIFY the channel
      }
      if (parsed.from !== processId) deliver(parsed.change);
    },
    // Once per outage: the retries that follow say nothing until one succeeds.
    onDown(error, { failures }) {
      if (failures === 0) log.warn({ err: error }, `[key-events] listening for key changes on PostgreSQL failed (${(error as Error).message}); retrying`);
    },
    onUp(failures) {
      if (failures > 0) log.warn("[key-events] listening for key changes on PostgreSQL again");
    },
    onCloseError: (error) => log.warn({ err: error }, "closing the connection for key changes failed"),
  });
  return {
    ready: listener.ready,
    notify: (change) => listener.query("SELECT pg_notify($1, $2)", [KEY_CHANGES_CHANNEL, JSON.stringify({ from: processId, change })]),
    stop: () => listener.stop(),
  };
}
