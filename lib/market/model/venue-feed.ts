import { z } from "zod";
import { transportSchema } from "./types";

// How each venue's numbers reach the service and how fast they are published, as GET /v1/exchanges
// and the /status page show it: read from what the ingesting process's feed board stored
// (lib/market/ingest/feed-status-store.ts).

const iso = z.iso.datetime().nullable();

export const venueFeedSchema = z
  .object({
    transport: transportSchema.describe(
      "How the venue's numbers arrive now: `stream` (its public WebSocket) or `poll` (REST requests at `poll_interval_seconds`; " +
        "also a venue whose stream stalled or failed, see `transport_reason`).",
    ),
    transport_reason: z.string().nullable().describe("Why a venue with a stream is polled now (a stall, a failed subscription); `null` otherwise."),
    poll_interval_seconds: z
      .number()
      .positive()
      .nullable()
      .describe("How often the venue is polled while `transport` is `poll`; `null` while it streams."),
    last_message_at: iso.describe(
      "ISO 8601 UTC of the last message with market data from the venue (a stream frame, or a polled answer); `null` before the first.",
    ),
    last_message_age_seconds: z
      .number()
      .nonnegative()
      .nullable()
      .describe("Seconds from `last_message_at` to the moment the answer was made; `null` before the first message."),
    latency_p50_ms: z
      .number()
      .nonnegative()
      .nullable()
      .describe(
        "Median venue-to-publish latency over the last hour, in milliseconds: from the venue's time of a changed leg (else its " +
          "arrival) to the moment the service published it. Read from per-minute histograms, within 5 % of the exact figure. " +
          "`null` without a published change in the hour.",
      ),
    latency_p99_ms: z.number().nonnegative().nullable().describe("The 99th percentile of the same latency; `null` without samples."),
    latency_samples: z.number().int().nonnegative().describe("How many published legs the two percentiles are computed from."),
    reconnects_24h: z.number().int().nonnegative().describe("How many times the venue's stream was opened again after it dropped, stalled or aged out, over the last 24 hours."),
    as_of: iso.describe(
      "When the ingesting process last reported these figures, ISO 8601 UTC (it does every few seconds while it runs); `null` when " +
        "it never has (no ingestion yet, or test keys): the figures are then what is known without it.",
    ),
  })
  .describe("The venue's feed: its transport, the age of its last message, its publish latency and its reconnects.");
export type VenueFeed = z.infer<typeof venueFeedSchema>;

/** One minute of a venue's feed, for the /status page's charts. */
export interface VenueFeedMinute {
  /** Epoch ms of the minute's start. */
  at: number;
  messages: number;
  p99Ms: number | null;
}
