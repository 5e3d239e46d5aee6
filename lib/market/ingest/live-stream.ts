import type { StreamConnection, StreamConnectionOptions, StreamState } from "../venues/streams/stream-connection";
import type { StreamUpdate } from "../venues/streams/stream-protocol";

// What the live feeds need of a venue's stream: StreamConnection's options and the part of it they
// call. The feeds are given a factory: the stream thread's (stream-thread.ts) in service, a fake
// connection in their tests, which never open a socket.

export type LiveStreamState = StreamState;

export interface LiveStreamOptions extends Omit<StreamConnectionOptions, "onUpdates"> {
  /**
   * Decoded market updates, with when their (last) frame arrived, epoch ms. `frames`: how many
   * frames they stand for, 1 when absent: the stream thread hands over a flush's conflated updates
   * in one call (0 when they are held state handed over again at its refresh).
   */
  onUpdates: (updates: StreamUpdate[], receivedAt: number, frames?: number) => void;
}

export type LiveStream = Pick<StreamConnection, "start" | "setMarkets" | "silentMarkets" | "state" | "close">;

export type OpenLiveStream = (options: LiveStreamOptions) => LiveStream;
