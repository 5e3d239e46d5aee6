import type { StreamConnection, StreamConnectionOptions, StreamState } from "../venues/streams/stream-connection";

// What the live feeds need of a venue's stream connection: StreamConnection's options and the part
// of it they call. The feeds are given a factory, so their tests drive a fake connection and never
// open a socket.

export type LiveStreamState = StreamState;

export type LiveStreamOptions = StreamConnectionOptions;

export type LiveStream = Pick<StreamConnection, "start" | "setMarkets" | "silentMarkets" | "state" | "close">;

export type OpenLiveStream = (options: LiveStreamOptions) => LiveStream;
