import type { VenueId } from "../model/types";

/**
 * How a venue's numbers reach the service: `stream` (its public WebSocket) or `poll` (REST requests
 * at the venue's cadence; also every venue's whole rounds, and the fallback of a stalled stream).
 */
export type Transport = "stream" | "poll";

/**
 * What the feeds report about themselves, for `/v1/exchanges` and the `/status` page: kept by the
 * process that ingests (FeedStatusBoard) and read by every server. The streams and the poller call
 * `message`, `reconnect` and `transport`; the publisher calls `published` for each changed leg it
 * publishes, which is what the venue-to-publish latency is measured from.
 */
export interface FeedStatusRecorder {
  /**
   * A frame or answer with market data arrived from `venue` at `receivedAt` (epoch ms); `count`
   * frames (1 when absent) where the stream thread reports a flush's frames at once, 0 where it
   * hands over a market's held state without new frames.
   */
  message(venue: VenueId, receivedAt: number, count?: number): void;
  /** A stream socket of `venue` was opened again after it dropped, stalled or aged out. */
  reconnect(venue: VenueId, at: number): void;
  /** `venue`'s numbers now arrive by `transport`; `reason` says why when a stream fell back to polling. */
  transport(venue: VenueId, transport: Transport, reason?: string): void;
  /** A leg of `venue` observed at `observedAt` (the venue's time, else its arrival) was published at `publishedAt`. */
  published(venue: VenueId, observedAt: number, publishedAt: number): void;
}
