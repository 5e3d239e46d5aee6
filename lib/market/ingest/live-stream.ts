import type { StreamUpdate, VenueStreamProtocol } from "../venues/streams/stream-protocol";

// What the live feeds need of a venue's stream connection (lib/market/venues/streams/
// stream-connection.ts's StreamConnection fits it as it is): the feeds are given a factory, so
// their tests drive a fake connection and never open a socket.

export type LiveStreamState = "connecting" | "live" | "stalled" | "down";

export interface LiveStreamOptions {
  protocol: VenueStreamProtocol;
  venueMarketIds: readonly string[];
  resolveUrl?: (url: string) => string;
  onUpdates: (updates: StreamUpdate[], receivedAt: number) => void;
  onState: (state: LiveStreamState, reason?: string) => void;
  onReconnect?: (at: number) => void;
  onError?: (message: string) => void;
  now?: () => number;
  fetch?: typeof globalThis.fetch;
}

export interface LiveStream {
  start(): void;
  setMarkets(venueMarketIds: readonly string[]): void;
  silentMarkets(ms: number, now?: number): string[];
  readonly state: LiveStreamState;
  close(): Promise<void>;
}

export type OpenLiveStream = (options: LiveStreamOptions) => LiveStream;
