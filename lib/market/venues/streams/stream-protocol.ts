import type { MarketSnapshot, VenueId } from "../../model/types";

// What a venue's public WebSocket says, in the service's terms. One protocol module per venue
// (`<venue>.ts` beside this file) knows the venue's URL, subscribe frames, keepalive and message
// shapes; it never opens a socket, so every recorded message can be decoded in a test without one.
// The socket, reconnects, stall detection and per-market silence are StreamConnection's, the same
// for every venue.

/**
 * The fields of one market a message carries, in MarketSnapshot's units: rates as a decimal per the
 * market's funding interval (a venue quoting percent or per 8 h is converted by its protocol),
 * times in epoch ms, prices per venue unit. A field absent from the object is one the message said
 * nothing about (a delta, or a channel that never carries it); `null` is the venue saying "none".
 */
export interface StreamFields {
  fundingRate?: number | null;
  predictedFundingRate?: number | null;
  nextFundingAt?: number | null;
  markPrice?: number | null;
  indexPrice?: number | null;
}

/** What one message says of one market. */
export interface StreamUpdate {
  /**
   * The venue's own id for the market: MarketSnapshot.venueMarketId, or the protocol's
   * `streamKey` of the market where it declares one.
   */
  venueMarketId: string;
  fields: StreamFields;
  /** The venue's own time for these numbers, epoch ms, where the message states one. */
  venueTime: number | null;
}

/** What decoding one frame gives: market updates, or the protocol's own traffic. */
export type StreamEvent =
  | { kind: "updates"; updates: StreamUpdate[] }
  /** A subscription was confirmed. */
  | { kind: "ack" }
  /** The venue's heartbeat or an answer to ours: the connection is alive, no market changed. */
  | { kind: "heartbeat" }
  /** A frame the protocol must answer (a venue ping expecting a pong). */
  | { kind: "reply"; frame: string }
  /** The venue refused something (a subscription, a malformed request), or sent what cannot be read. */
  | { kind: "error"; message: string };

/** One socket to open and what to send on it once open. */
export interface StreamSocketPlan {
  url: string;
  /** Frames sent in order once the socket opens (and again after each reconnect). */
  subscribe: string[];
}

export interface VenueStreamProtocol {
  venue: VenueId;
  /**
   * The name the venue's stream gives a market, where it is not the market's venueMarketId
   * (Hyperliquid subscribes and keys by coin, `BTC`, while ccxt's id is the asset index `0`). Where
   * set, `sockets` is given these names, `decode`'s updates carry them as `venueMarketId`, and the
   * live feeds map them to and from the round's markets. Absent: the venueMarketId is the name.
   */
  streamKey?: (market: Pick<MarketSnapshot, "venueMarketId" | "venueBase">) => string;
  /**
   * The sockets covering these markets (their `streamKey`s where the protocol declares one): one for
   * venues with an all-markets channel, several where the venue caps subscriptions per connection
   * or per frame.
   */
  sockets(venueMarketIds: readonly string[]): StreamSocketPlan[];
  /**
   * Resolves a plan's URL before each connect, for venues that hand out a connect token over REST
   * (KuCoin's `POST /api/v1/bullet-public`). Absent where the plan's URL is used as it is.
   */
  connectUrl?: (planUrl: string, fetch: typeof globalThis.fetch) => Promise<string>;
  /**
   * What keeps the connection open: a text frame to send every `everyMs`, or `"protocol-ping"` for
   * a WebSocket ping frame. Absent where the venue pings us (its pings are answered by `decode`'s
   * `reply`, or by the ws library for protocol pings).
   */
  keepalive?: { frame: string | "protocol-ping"; everyMs: number };
  /**
   * How long a socket may go without a market update before it counts as stalled: a few times the
   * venue's documented push rate (Binance's `@1s` array → 5 s; a 1-per-minute channel → 3 min).
   */
  stallAfterMs: number;
  /** Reconnect before the venue cuts a connection of this age (Binance and Bitget: 24 h). */
  maxLifetimeMs?: number;
  /**
   * Decodes one frame (text, or binary where the venue compresses: BingX and HTX gzip). Must not
   * throw: what cannot be read is an `error` event.
   */
  decode(frame: string | Buffer, receivedAt: number): StreamEvent[];
}
