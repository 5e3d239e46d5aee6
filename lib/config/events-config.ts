import { z } from "zod";
import { positiveInt, readSettings } from "@/lib/config/settings";

const schema = z.object({
  /** How far an opportunity's net APR must move between two published sets for `opportunity.updated`, in APR points. */
  EVENTS_NET_APR_THRESHOLD: z.coerce.number().positive().default(5),
  /** How long the event log keeps events, and so how far back `after` and `Last-Event-ID` reach, in days. */
  EVENTS_RETENTION_DAYS: positiveInt(30),
  /** How often an idle /v1/stream sends a heartbeat comment. */
  STREAM_HEARTBEAT_MS: positiveInt(15_000),
  /** How often each process reads the event log for its streams' subscribers. */
  STREAM_POLL_MS: positiveInt(500),
  /** How often an open stream re-checks its key (revocation, expiry, a downgrade). */
  STREAM_KEY_CHECK_MS: positiveInt(1_000),
  /**
   * The sandbox's tick: how often the market test keys read moves and writes its events. The
   * sandbox is generated per UTC minute, so the tick is a whole number of minutes.
   */
  SANDBOX_TICK_MS: positiveInt(60_000).refine((ms) => ms % 60_000 === 0, "SANDBOX_TICK_MS must be a whole number of minutes (a multiple of 60000)"),
});

export type EventsConfig = z.infer<typeof schema>;

/** Settings of the event log, the stream and the sandbox tick (docs/operations.md); a bad value stops start-up naming it. */
export function readEventsConfig(source: NodeJS.ProcessEnv = process.env): EventsConfig {
  return readSettings(schema, source);
}
