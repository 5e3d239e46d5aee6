import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";

/** A frame to play: as it is (after the server's interval), or after its own delay. */
export type ReplayFrame = string | Buffer | { frame: string | Buffer; delayMs: number };

export interface WsReplayServerOptions {
  /**
   * Frames played to each client in order, from the first, once it sends its first frame (its
   * subscribe), or once it connects with `playOnConnect`. A client connecting again hears them again.
   * A function gets the request path, so one server can play each venue (or socket) its own.
   */
  frames?: readonly ReplayFrame[] | ((path: string) => readonly ReplayFrame[]);
  playOnConnect?: boolean;
  /** The pause before each frame that has no delay of its own (default 0). */
  intervalMs?: number;
  /** Start again from the first frame after the last: steady traffic for the stall and lifetime tests. */
  loop?: boolean;
  /** The server's answer to a text frame a client sends (a subscribe's ack, a pong): frames to send back. */
  answer?: (frame: string) => string | readonly string[] | undefined;
}

/** One connection the server accepted, as the server saw it. */
export interface ReplayClient {
  /** The request path and query (a resolveUrl that keeps the venue's path lets one server tell venues apart). */
  path: string;
  /** Every frame the client sent, in order (binary ones as base64). */
  sent: string[];
  /** Protocol ping frames the client sent (the ws library answers them). */
  pings: number;
  connectedAt: number;
  closedAt?: number;
}

export interface WsReplayServer {
  /** `ws://127.0.0.1:<port>`. */
  url: string;
  /** Sends `frame` to every open client now, as it is (no stall, no market filter). */
  send(frame: string | Buffer): void;
  /** Sends a frame no protocol can read. */
  sendMalformed(frame?: string): void;
  /** Terminates every client's connection, as a venue or a network cut would. */
  drop(): void;
  /** Stops playing frames (each client's place is kept) while still answering what clients send. */
  stall(): void;
  resume(): void;
  /**
   * Rewrites every played text frame from now on: the filter returns the frame without one market's
   * rows, or undefined to leave the frame out. `undefined` plays the frames whole again.
   */
  withoutMarket(filter: ((frame: string) => string | undefined) | undefined): void;
  /** Refuses new connections' handshakes (HTTP 503) while on. */
  refuse(on: boolean): void;
  /** The open connections. */
  clients(): ReplayClient[];
  /** Every connection accepted since the start, open or closed, in order. */
  connections(): ReplayClient[];
  /** When each handshake arrived, refused ones included. */
  attempts(): number[];
  close(): Promise<void>;
}

interface Player {
  client: ReplayClient;
  socket: WebSocket;
  frames: readonly ReplayFrame[];
  next: number;
  timer?: NodeJS.Timeout;
}

/**
 * A loopback WebSocket server standing in for a venue's stream: it plays recorded frames, answers
 * what clients send, and is told to drop, stall, send garbage or go quiet about one market. It
 * knows no venue: the frames, the answers and the market filter come from the test.
 */
export async function startWsReplayServer(options: WsReplayServerOptions = {}): Promise<WsReplayServer> {
  const intervalMs = options.intervalMs ?? 0;
  const players = new Set<Player>();
  const all: ReplayClient[] = [];
  const handshakes: number[] = [];
  let stalled = false;
  let refusing = false;
  let filter: ((frame: string) => string | undefined) | undefined;

  const server = new WebSocketServer({
    host: "127.0.0.1",
    port: 0,
    verifyClient: (_info, done) => {
      handshakes.push(Date.now());
      if (refusing) done(false, 503, "refused by the test");
      else done(true);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;

  const play = (player: Player, data: string | Buffer) => {
    if (player.socket.readyState !== player.socket.OPEN) return;
    if (typeof data === "string" && filter) {
      const kept = filter(data);
      if (kept === undefined) return;
      player.socket.send(kept);
    } else player.socket.send(data);
  };

  const schedule = (player: Player) => {
    if (player.next >= player.frames.length) {
      if (!options.loop || player.frames.length === 0) return;
      player.next = 0;
    }
    const entry = player.frames[player.next]!;
    const isTimed = typeof entry === "object" && !Buffer.isBuffer(entry);
    player.timer = setTimeout(() => {
      // A stalled server keeps each client's place and looks again a little later.
      if (stalled) return schedule(player);
      play(player, isTimed ? entry.frame : entry);
      player.next += 1;
      schedule(player);
    }, isTimed ? entry.delayMs : intervalMs);
  };

  server.on("connection", (socket, request) => {
    const client: ReplayClient = { path: request.url ?? "/", sent: [], pings: 0, connectedAt: Date.now() };
    all.push(client);
    const frames = typeof options.frames === "function" ? options.frames(client.path) : (options.frames ?? []);
    const player: Player = { client, socket, frames, next: 0 };
    players.add(player);
    let playing = false;
    const startPlaying = () => {
      if (playing) return;
      playing = true;
      schedule(player);
    };
    socket.on("message", (data, isBinary) => {
      const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
      const text = isBinary ? bytes.toString("base64") : bytes.toString("utf8");
      client.sent.push(text);
      const answer = isBinary ? undefined : options.answer?.(text);
      for (const frame of typeof answer === "string" ? [answer] : (answer ?? [])) socket.send(frame);
      startPlaying();
    });
    socket.on("ping", () => (client.pings += 1));
    socket.on("close", () => {
      client.closedAt = Date.now();
      clearTimeout(player.timer);
      players.delete(player);
    });
    socket.on("error", () => undefined);
    if (options.playOnConnect) startPlaying();
  });

  const send = (frame: string | Buffer) => {
    for (const player of players) if (player.socket.readyState === player.socket.OPEN) player.socket.send(frame);
  };

  return {
    url: `ws://127.0.0.1:${port}`,
    send,
    sendMalformed: (frame = '{"this is": not JSON') => send(frame),
    drop: () => {
      for (const player of players) player.socket.terminate();
    },
    stall: () => {
      stalled = true;
    },
    resume: () => {
      stalled = false;
    },
    withoutMarket: (next) => {
      filter = next;
    },
    refuse: (on) => {
      refusing = on;
    },
    clients: () => [...players].map((player) => player.client),
    connections: () => [...all],
    attempts: () => [...handshakes],
    close: async () => {
      for (const player of players) {
        clearTimeout(player.timer);
        player.socket.terminate();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
