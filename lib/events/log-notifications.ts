import { listenOnChannel } from "@/lib/db/listen-channel";
import { logger } from "@/lib/observability/logger";
import { EVENT_LOG_CHANNEL, eventLogWriter, eventsAppended } from "./append-events";

const log = logger("events");

/**
 * On PostgreSQL, events another process appended (a worker's round, another server's sandbox tick)
 * wake this process's stream feed and webhook dispatcher at once, as its own appends do: one
 * connection LISTENs on the log's channel and passes each notification to `eventsAppended()`.
 * Without it they would wait for the next poll (STREAM_POLL_MS, WEBHOOK_POLL_MS), half a second
 * or more, where the push targets are a quarter of one. A lost connection is opened again with
 * backoff; the polls carry on meanwhile, so nothing is missed, only later. This process's own
 * appends (the notification's payload is `eventLogWriter()`) are passed over: it was told of them
 * in-process, with their events.
 */
export function listenForAppendedEvents(databaseUrl: string): { stop: () => Promise<void> } {
  const listener = listenOnChannel({
    databaseUrl,
    channel: EVENT_LOG_CHANNEL,
    onNotification: (writer) => {
      if (writer !== eventLogWriter()) eventsAppended().notify();
    },
    onDown: (error, { retryInMs }) => log.error({ err: error, retryInMs }, `listening for appended events failed; again in ${retryInMs} ms`),
    onCloseError: (error) => log.warn({ err: error }, "closing the connection listening for appended events failed"),
  });
  return { stop: () => listener.stop() };
}
