import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startWsReplayServer, type WsReplayServer, type WsReplayServerOptions } from "@/tests/support/ws-replay-server";
import { StreamConnection, type StreamConnectionOptions, type StreamState } from "./stream-connection";
import type { StreamEvent, StreamUpdate, VenueStreamProtocol } from "./stream-protocol";

const ROOT = join(__dirname, "../../../..");
const WAIT = { timeout: 8_000, interval: 10 };

// A made-up venue, small enough to read at a glance: markets travel in pairs per socket,
// `{"t":…,"rows":[{"m":"A","p":1}]}` carries marks, `{"op":"ack"}` / `{"op":"pong"}` are its own
// traffic, `{"ping":n}` wants `{"pong":n}` back, `{"refused":"…"}` is its error, gzip frames are binary.
function decodeTestFrame(frame: string | Buffer): StreamEvent[] {
  let text: string;
  try {
    text = typeof frame === "string" ? frame : gunzipSync(frame).toString("utf8");
  } catch {
    throw new Error("not gzip");
  }
  let message: Record<string, unknown>;
  try {
    message = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return [{ kind: "error", message: `not JSON: ${text.slice(0, 30)}` }];
  }
  if (message.op === "ack") return [{ kind: "ack" }];
  if (message.op === "pong") return [{ kind: "heartbeat" }];
  if (typeof message.ping === "number") return [{ kind: "reply", frame: JSON.stringify({ pong: message.ping }) }];
  if (typeof message.refused === "string") return [{ kind: "error", message: message.refused }];
  if (message.boom) throw new Error("a protocol bug");
  const rows = message.rows as { m: string; p: number }[];
  const venueTime = typeof message.t === "number" ? message.t : null;
  return [{ kind: "updates", updates: rows.map((row) => ({ venueMarketId: row.m, fields: { markPrice: row.p }, venueTime })) }];
}

function pairs(ids: readonly string[]): string[][] {
  const groups: string[][] = [];
  for (let index = 0; index < ids.length; index += 2) groups.push(ids.slice(index, index + 2));
  return groups;
}

const subscribeFrame = (group: readonly string[]) => JSON.stringify({ op: "subscribe", args: group });

function testProtocol(overrides: Partial<VenueStreamProtocol> = {}): VenueStreamProtocol {
  return {
    venue: "bybit",
    sockets: (ids) => pairs(ids).map((group) => ({ url: `wss://stream.venue.invalid/ws/${group.join("-")}`, subscribe: [subscribeFrame(group)] })),
    // Long enough that a loaded machine's pauses are not stalls; the stall tests set their own.
    stallAfterMs: 2_000,
    decode: decodeTestFrame,
    ...overrides,
  };
}

const rows = (t: number, ...marks: [string, number][]) => JSON.stringify({ t, rows: marks.map(([m, p]) => ({ m, p })) });

/** Acks subscribes and answers the text keepalive, as most venues do. */
const answerTestFrame = (frame: string) => (frame.startsWith('{"op":"subscribe"') ? '{"op":"ack"}' : frame === "ping" ? '{"op":"pong"}' : undefined);

interface Seen {
  updates: { updates: StreamUpdate[]; receivedAt: number }[];
  states: { state: StreamState; reason?: string; connections: number; at: number }[];
  reconnects: number[];
  errors: string[];
}

const servers: WsReplayServer[] = [];
const connections: StreamConnection[] = [];

afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function replayServer(options: WsReplayServerOptions): Promise<WsReplayServer> {
  const server = await startWsReplayServer(options);
  servers.push(server);
  return server;
}

function open(
  server: Pick<WsReplayServer, "url" | "connections">,
  protocol: VenueStreamProtocol,
  venueMarketIds: readonly string[],
  options: Partial<StreamConnectionOptions> = {},
): { connection: StreamConnection; seen: Seen } {
  const seen: Seen = { updates: [], states: [], reconnects: [], errors: [] };
  const connection = new StreamConnection({
    protocol,
    venueMarketIds,
    // The venue's path and query are kept, so the server tells the sockets apart.
    resolveUrl: (url) => {
      const venueUrl = new URL(url);
      return `${server.url}${venueUrl.pathname}${venueUrl.search}`;
    },
    onUpdates: (updates, receivedAt) => seen.updates.push({ updates, receivedAt }),
    onState: (state, reason) => seen.states.push({ state, reason, connections: server.connections().length, at: Date.now() }),
    onReconnect: (at) => seen.reconnects.push(at),
    onError: (message) => seen.errors.push(message),
    backoff: { initialMs: 40, maxMs: 2_000, resetAfterMs: 60_000 },
    random: () => 0.999,
    ...options,
  });
  connections.push(connection);
  connection.start();
  return { connection, seen };
}

/**
 * Keeps this thread busy in stretches of `stretchMs` for `totalMs`, letting one turn of the event
 * loop (its timers, then its sockets) run between stretches: a thread with more to do than time.
 */
async function busyTurns(stretchMs: number, totalMs: number): Promise<void> {
  const end = Date.now() + totalMs;
  do {
    const until = Date.now() + stretchMs;
    while (Date.now() < until) {
      // the thread is busy
    }
    await new Promise((resolve) => setImmediate(resolve));
  } while (Date.now() < end);
}

const marks = (seen: Seen) => seen.updates.flatMap(({ updates }) => updates.map((update) => `${update.venueMarketId}:${update.fields.markPrice}`));
const stateNames = (seen: Seen) => seen.states.map(({ state }) => state);

describe("StreamConnection", () => {
  it("subscribes on open, answers the venue's pings, keeps alive, and delivers updates in order (binary frames too)", async () => {
    const server = await replayServer({
      frames: ['{"ping":7}', rows(1, ["A", 1]), rows(2, ["A", 2], ["B", 2]), gzipSync(rows(3, ["B", 3])), rows(4, ["A", 4])],
      intervalMs: 15,
      answer: answerTestFrame,
    });
    const { connection, seen } = open(server, testProtocol({ keepalive: { frame: "ping", everyMs: 20 } }), ["A", "B"]);

    await vi.waitFor(() => expect(marks(seen)).toEqual(["A:1", "A:2", "B:2", "B:3", "A:4"]), WAIT);
    await vi.waitFor(() => expect(server.connections()[0]?.sent).toContain("ping"), WAIT);
    const [client] = server.connections();
    expect(server.connections()).toHaveLength(1);
    expect(client?.path).toBe("/ws/A-B");
    expect(client?.sent[0]).toBe(subscribeFrame(["A", "B"]));
    expect(client?.sent).toContain('{"pong":7}');
    expect(seen.updates.map(({ updates }) => updates[0]?.venueTime)).toEqual([1, 2, 3, 4]);
    // Acks, pongs and the venue's ping are not market data: one batch per data frame, no errors.
    expect(seen.updates).toHaveLength(4);
    expect(seen.errors).toEqual([]);
    expect(stateNames(seen)).toEqual(["live"]);
    expect(connection.state).toBe("live");
    expect(seen.reconnects).toEqual([]);
  });

  it("reconnects a dropped socket after the backoff, subscribes again and says so", async () => {
    const server = await replayServer({ frames: [rows(1, ["A", 1])], loop: true, intervalMs: 20, answer: answerTestFrame });
    const { connection, seen } = open(server, testProtocol({ keepalive: { frame: "protocol-ping", everyMs: 20 } }), ["A"], {
      backoff: { initialMs: 150, maxMs: 2_000 },
    });
    await vi.waitFor(() => expect(connection.state).toBe("live"), WAIT);
    await vi.waitFor(() => expect(server.connections()[0]?.pings).toBeGreaterThan(0), WAIT);

    const droppedAt = Date.now();
    server.drop();
    await vi.waitFor(() => expect(seen.reconnects).toHaveLength(1), WAIT);
    await vi.waitFor(() => expect(connection.state).toBe("live"), WAIT);

    const [first, second] = server.connections();
    expect(server.connections()).toHaveLength(2);
    expect(first?.closedAt).toBeDefined();
    expect(second?.sent[0]).toBe(subscribeFrame(["A"]));
    // random 0.999 → a wait of about the whole first ceiling (150 ms), never less than half of it.
    expect(second!.connectedAt - droppedAt).toBeGreaterThanOrEqual(140);
    expect(stateNames(seen)).toEqual(["live", "down", "connecting", "live"]);
    expect(seen.states[1]?.reason).toMatch(/closed|socket hang up|ECONNRESET/);
  });

  it("waits longer after each refused attempt, and forgets the failures after a healthy period", async () => {
    const server = await replayServer({ frames: [rows(1, ["A", 1])], loop: true, intervalMs: 20, answer: answerTestFrame });
    const { connection, seen } = open(server, testProtocol(), ["A"], { backoff: { initialMs: 40, maxMs: 2_000, resetAfterMs: 250 } });
    await vi.waitFor(() => expect(connection.state).toBe("live"), WAIT);

    server.refuse(true);
    server.drop();
    await vi.waitFor(() => expect(server.attempts().length).toBeGreaterThanOrEqual(5), WAIT);
    const attempts = server.attempts().slice(1, 5);
    const gaps = attempts.slice(1).map((at, index) => at - attempts[index]!);
    // Attempts 1–4 after the drop wait ≈ 40, 80, 160, 320 ms: the gaps between them are the last three.
    expect(gaps[0]).toBeGreaterThanOrEqual(75);
    expect(gaps[1]).toBeGreaterThanOrEqual(155);
    expect(gaps[2]).toBeGreaterThanOrEqual(315);
    // A refused attempt never opened: the connection stays down, without flapping through "connecting".
    expect(stateNames(seen)).toEqual(["live", "down"]);

    server.refuse(false);
    await vi.waitFor(() => expect(connection.state).toBe("live"), WAIT);
    expect(server.connections().at(-1)?.sent[0]).toBe(subscribeFrame(["A"]));

    // Live with data past resetAfterMs: the next drop waits the first delay again, not the sixth.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const droppedAt = Date.now();
    const before = server.connections().length;
    server.drop();
    await vi.waitFor(() => expect(server.connections().length).toBe(before + 1), WAIT);
    // Without the reset: the sixth attempt's ≈ 1280 ms.
    expect(server.connections().at(-1)!.connectedAt - droppedAt).toBeLessThan(1_000);
  });

  it("reopens a silent socket once, reports it stalled when that does not help, and live again when data returns", async () => {
    const server = await replayServer({ frames: [rows(1, ["A", 1])], loop: true, intervalMs: 20, answer: answerTestFrame });
    const { connection, seen } = open(server, testProtocol({ keepalive: { frame: "ping", everyMs: 40 }, stallAfterMs: 200 }), ["A"], {
      backoff: { initialMs: 300, maxMs: 2_000 },
    });
    await vi.waitFor(() => expect(connection.state).toBe("live"), WAIT);

    server.stall();
    await vi.waitFor(() => expect(connection.state).toBe("stalled"), WAIT);
    const stalled = seen.states.find(({ state }) => state === "stalled")!;
    const lastUpdate = seen.updates.at(-1)!.receivedAt;
    // One resubscribe (a second connection) before "stalled", which comes after two silences of 200 ms.
    expect(stalled.connections).toBe(2);
    expect(stalled.at - lastUpdate).toBeGreaterThanOrEqual(395);
    expect(stalled.reason).toMatch(/no market update for \d+ ms after resubscribing/);
    const resubscribed = server.connections()[1]!;
    expect(resubscribed.sent[0]).toBe(subscribeFrame(["A"]));
    // The venue kept answering the keepalive while silent: heartbeats do not hide a stall.
    await vi.waitFor(() => expect(resubscribed.sent.filter((frame) => frame === "ping").length).toBeGreaterThan(0), WAIT);
    expect(seen.reconnects.length).toBeGreaterThanOrEqual(1);

    const updatesBefore = seen.updates.length;
    server.resume();
    await vi.waitFor(() => expect(connection.state).toBe("live"), WAIT);
    expect(seen.updates.length).toBeGreaterThan(updatesBefore);
    expect(stateNames(seen)).toEqual(["live", "stalled", "live"]);
  });

  it("does not take its own thread's pause for the venue's silence", async () => {
    const server = await replayServer({ frames: [rows(1, ["A", 1])], loop: true, intervalMs: 20, answer: answerTestFrame });
    const { connection, seen } = open(server, testProtocol({ stallAfterMs: 200 }), ["A"]);
    await vi.waitFor(() => expect(connection.state).toBe("live"), WAIT);
    const updates = seen.updates.length;
    // Busy for three stall limits: neither the replay server's frames nor the stall checks run meanwhile.
    const until = Date.now() + 600;
    while (Date.now() < until) {
      // the thread is busy
    }
    await vi.waitFor(() => expect(seen.updates.length).toBeGreaterThan(updates + 5), WAIT);
    expect(server.connections()).toHaveLength(1);
    expect(stateNames(seen)).toEqual(["live"]);
  });

  it("does not take its own thread's pauses, one after another, for the venue's silence", async () => {
    const server = await replayServer({ frames: [rows(1, ["A", 1])], loop: true, intervalMs: 20, answer: answerTestFrame });
    const { connection, seen } = open(server, testProtocol({ stallAfterMs: 200 }), ["A"]);
    await vi.waitFor(() => expect(connection.state).toBe("live"), WAIT);
    const updates = seen.updates.length;
    // A thread behind its sockets: each turn of its loop reads what came and is busy again for longer
    // than the stall limit, so every stall check comes late and finds the last update a pause ago.
    await busyTurns(350, 2_000);
    await vi.waitFor(() => expect(seen.updates.length).toBeGreaterThan(updates + 5), WAIT);
    expect(server.connections()).toHaveLength(1);
    expect(stateNames(seen)).toEqual(["live"]);
  });

  it("still finds a real silence while its thread is late, after as many checks", async () => {
    const server = await replayServer({ frames: [rows(1, ["A", 1])], loop: true, intervalMs: 20, answer: answerTestFrame });
    const { connection, seen } = open(server, testProtocol({ stallAfterMs: 200 }), ["A"], { backoff: { initialMs: 300, maxMs: 2_000 } });
    await vi.waitFor(() => expect(connection.state).toBe("live"), WAIT);
    server.stall();
    let turns = 0;
    while (connection.state !== "stalled" && turns < 40) {
      await busyTurns(350, 350);
      turns += 1;
    }
    expect(connection.state).toBe("stalled");
    // Each late check counts at most two check periods (2 × 50 ms): two silences of 200 ms take at least four.
    expect(turns).toBeGreaterThanOrEqual(4);
    expect(stateNames(seen)).toEqual(["live", "stalled"]);
    expect(server.connections()).toHaveLength(2);
  });

  it("gives an opening handshake the time its thread listened, not the time it was busy", async () => {
    const server = await replayServer({ frames: [rows(1, ["A", 1])], loop: true, intervalMs: 20, answer: answerTestFrame });
    // Busy from the first turn, for longer than the connect timeout each time: the venue (here, this
    // thread's replay server) answers at once, and the answer waits unread behind the pause.
    const { connection, seen } = open(server, testProtocol({ stallAfterMs: 200 }), ["A"], { connectTimeoutMs: 600 });
    await busyTurns(700, 2_800);
    await vi.waitFor(() => expect(connection.state).toBe("live"), WAIT);
    expect(server.attempts()).toHaveLength(1);
    expect(stateNames(seen)).toEqual(["live"]);
  });

  it("gives up a handshake the venue never answers, and tries again", async () => {
    // A listener that accepts the TCP connection and never answers the upgrade request.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      // Read (and drop) the request, so that the client's close is seen.
      socket.resume();
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      let accepted = 0;
      silent.on("connection", () => (accepted += 1));
      const listener = { url: `ws://127.0.0.1:${port}`, connections: () => [] };
      const { connection, seen } = open(listener, testProtocol({ stallAfterMs: 200 }), ["A"], { connectTimeoutMs: 150 });
      await vi.waitFor(() => expect(accepted).toBeGreaterThanOrEqual(2), WAIT);
      expect(seen.states[0]).toMatchObject({ state: "down", reason: "opening handshake timed out (150 ms)" });
      expect(connection.state).toBe("down");
      // Given up or closed with the connection, no socket is left waiting on the listener.
      await connection.close();
      await vi.waitFor(() => expect(sockets.size).toBe(0), WAIT);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("is as stalled as its worst socket, while the others flow", async () => {
    // The socket of C hears nothing; the socket of A and B hears its markets every 20 ms.
    const server = await replayServer({
      frames: (path) => (path === "/ws/A-B" ? [rows(1, ["A", 1], ["B", 1])] : []),
      loop: true,
      intervalMs: 20,
      answer: answerTestFrame,
    });
    const { connection, seen } = open(server, testProtocol({ stallAfterMs: 200 }), ["A", "B", "C"], { backoff: { initialMs: 300, maxMs: 2_000 } });
    await vi.waitFor(() => expect(connection.state).toBe("stalled"), WAIT);
    expect(stateNames(seen)).toEqual(["stalled"]);
    const byPath = (path: string) => server.connections().filter((client) => client.path === path);
    expect(byPath("/ws/A-B")).toHaveLength(1);
    expect(byPath("/ws/C").length).toBeGreaterThanOrEqual(2);
    expect(marks(seen).every((mark) => mark === "A:1" || mark === "B:1")).toBe(true);
    expect(marks(seen).length).toBeGreaterThan(4);
    // Per-market silence is for a live connection; a stalled one is polled whole.
    expect(connection.silentMarkets(100)).toEqual([]);
  });

  it("keeps trying while stalled, with the backoff", async () => {
    const server = await replayServer({ frames: [rows(1, ["A", 1])], loop: true, intervalMs: 20, answer: answerTestFrame });
    const { connection } = open(server, testProtocol({ stallAfterMs: 100 }), ["A"], { backoff: { initialMs: 100, maxMs: 2_000 } });
    await vi.waitFor(() => expect(connection.state).toBe("live"), WAIT);
    server.stall();
    await vi.waitFor(() => expect(connection.state).toBe("stalled"), WAIT);
    const atStall = server.connections().length;
    await vi.waitFor(() => expect(server.connections().length).toBeGreaterThanOrEqual(atStall + 2), WAIT);
    // A connection is counted at its handshake and sends its subscribe frame just after: wait for the last one's.
    await vi.waitFor(() => {
      const reopened = server.connections().slice(atStall - 1);
      expect(reopened.every((client) => client.sent[0] === subscribeFrame(["A"]))).toBe(true);
      expect(server.clients()).toHaveLength(1);
    }, WAIT);
    expect(connection.state).toBe("stalled");
  });

  it("asks the protocol for a fresh connect URL before every connect, with the given fetch, and retries when that fails", async () => {
    const server = await replayServer({ frames: [rows(1, ["A", 1])], loop: true, intervalMs: 20, answer: answerTestFrame });
    let tokens = 0;
    const fetch = vi.fn(async () => {
      tokens += 1;
      // The first request fails, as a venue's token endpoint sometimes does.
      if (tokens === 1) return new Response("busy", { status: 503 });
      return Response.json({ token: `t${tokens}` });
    });
    const protocol = testProtocol({
      connectUrl: async (planUrl, fetchToken) => {
        const answer = await fetchToken("https://api.venue.invalid/bullet-public", { method: "POST" });
        if (!answer.ok) throw new Error(`token request answered ${answer.status}`);
        const { token } = (await answer.json()) as { token: string };
        return `${planUrl}?token=${token}`;
      },
    });
    const { connection, seen } = open(server, protocol, ["A"], { fetch: fetch as unknown as typeof globalThis.fetch });
    await vi.waitFor(() => expect(connection.state).toBe("live"), WAIT);
    expect(seen.states.slice(0, 1)).toMatchObject([{ state: "down", reason: "connect URL: token request answered 503" }]);
    expect(server.connections().map(({ path }) => path)).toEqual(["/ws/A?token=t2"]);

    server.drop();
    await vi.waitFor(() => expect(seen.reconnects).toHaveLength(1), WAIT);
    expect(server.connections().map(({ path }) => path)).toEqual(["/ws/A?token=t2", "/ws/A?token=t3"]);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it("reports malformed frames, venue errors and a throwing decode, and keeps the socket", async () => {
    const server = await replayServer({ frames: [rows(1, ["A", 1])], loop: true, intervalMs: 20, answer: answerTestFrame });
    const { connection, seen } = open(server, testProtocol(), ["A"]);
    await vi.waitFor(() => expect(connection.state).toBe("live"), WAIT);

    server.sendMalformed();
    server.send('{"refused":"unknown topic"}');
    server.send('{"boom":true}');
    server.send(Buffer.from("not gzip at all"));
    await vi.waitFor(() => expect(seen.errors).toHaveLength(4), WAIT);
    expect(seen.errors[0]).toMatch(/^bybit: not JSON/);
    expect(seen.errors[1]).toBe("bybit: unknown topic");
    expect(seen.errors[2]).toBe("bybit: undecodable frame: a protocol bug");
    expect(seen.errors[3]).toBe("bybit: undecodable frame: not gzip");

    const updatesAfterErrors = seen.updates.length;
    await vi.waitFor(() => expect(seen.updates.length).toBeGreaterThan(updatesAfterErrors + 2), WAIT);
    expect(server.connections()).toHaveLength(1);
    expect(stateNames(seen)).toEqual(["live"]);
  });

  it("survives a callback that throws", async () => {
    const server = await replayServer({ frames: [rows(1, ["A", 1])], loop: true, intervalMs: 20, answer: answerTestFrame });
    let calls = 0;
    const { seen } = open(server, testProtocol(), ["A"], {
      onUpdates: () => {
        calls += 1;
        throw new Error("the orchestrator failed");
      },
    });
    await vi.waitFor(() => expect(calls).toBeGreaterThan(3), WAIT);
    expect(seen.errors[0]).toBe("bybit: a stream callback failed: the orchestrator failed");
    expect(server.connections()).toHaveLength(1);
  });

  it("opens the replacement before closing a socket at its lifetime, with no state change", async () => {
    const server = await replayServer({ frames: [rows(1, ["A", 1])], loop: true, intervalMs: 20, answer: answerTestFrame });
    const { connection, seen } = open(server, testProtocol({ maxLifetimeMs: 300 }), ["A"]);
    await vi.waitFor(() => expect(seen.reconnects.length).toBeGreaterThanOrEqual(2), WAIT);
    await vi.waitFor(() => expect(server.clients()).toHaveLength(1), WAIT);

    const [first, second, third] = server.connections();
    // Each replacement connected while its predecessor was still open, and subscribed.
    expect(second!.connectedAt).toBeLessThanOrEqual(first!.closedAt!);
    expect(third!.connectedAt).toBeLessThanOrEqual(second!.closedAt!);
    expect(second!.sent[0]).toBe(subscribeFrame(["A"]));
    expect(first!.closedAt! - first!.connectedAt).toBeGreaterThanOrEqual(290);
    expect(stateNames(seen)).toEqual(["live"]);
    expect(connection.state).toBe("live");
  });

  it("reopens only the sockets whose plan changed when the market list changes", async () => {
    const server = await replayServer({ frames: [rows(1, ["A", 1])], loop: true, intervalMs: 20, answer: answerTestFrame });
    const { connection, seen } = open(server, testProtocol(), ["A", "B", "C"]);
    await vi.waitFor(() => expect(server.clients().map(({ path }) => path).sort()).toEqual(["/ws/A-B", "/ws/C"]), WAIT);

    connection.setMarkets(["A", "B", "C", "D"]);
    await vi.waitFor(() => expect(server.clients().map(({ path }) => path).sort()).toEqual(["/ws/A-B", "/ws/C-D"]), WAIT);
    const byPath = (path: string) => server.connections().filter((client) => client.path === path);
    expect(byPath("/ws/A-B")).toHaveLength(1);
    expect(byPath("/ws/A-B")[0]?.closedAt).toBeUndefined();
    expect(byPath("/ws/C")[0]?.closedAt).toBeDefined();
    await vi.waitFor(() => expect(byPath("/ws/C-D")[0]?.sent[0]).toBe(subscribeFrame(["C", "D"])), WAIT);
    // A new plan is not a reconnect.
    expect(seen.reconnects).toEqual([]);

    connection.setMarkets([]);
    await vi.waitFor(() => expect(server.clients()).toEqual([]), WAIT);
    expect(connection.state).toBe("down");
    expect(seen.states.at(-1)).toMatchObject({ state: "down", reason: "no socket planned for these markets" });
  });

  it("after close(), opens nothing and calls nothing, even with a reconnect pending", async () => {
    const server = await replayServer({ frames: [rows(1, ["A", 1])], loop: true, intervalMs: 20, answer: answerTestFrame });
    const { connection, seen } = open(server, testProtocol({ keepalive: { frame: "ping", everyMs: 20 }, maxLifetimeMs: 150 }), ["A"], {
      backoff: { initialMs: 100, maxMs: 2_000 },
    });
    await vi.waitFor(() => expect(connection.state).toBe("live"), WAIT);
    server.drop();
    await vi.waitFor(() => expect(connection.state).toBe("down"), WAIT);
    await connection.close();
    const attempts = server.attempts().length;
    const calls = seen.updates.length + seen.states.length + seen.reconnects.length + seen.errors.length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(server.attempts().length).toBe(attempts);
    expect(seen.updates.length + seen.states.length + seen.reconnects.length + seen.errors.length).toBe(calls);
    expect(server.clients()).toEqual([]);
    expect(connection.state).toBe("down");
  });

  it("leaves nothing that keeps the process alive after close()", async () => {
    // The venue stays up (in this process): only the child's own sockets and timers could keep it running.
    const server = await replayServer({ frames: [rows(1, ["A", 1])], loop: true, intervalMs: 10, answer: answerTestFrame });
    const dir = mkdtempSync(join(tmpdir(), "stream-connection-"));
    try {
      const script = join(dir, "exits.mts");
      writeFileSync(
        script,
        `import { StreamConnection } from ${JSON.stringify(join(ROOT, "lib/market/venues/streams/stream-connection.ts"))};
let live = () => {};
const connection = new StreamConnection({
  protocol: {
    venue: "bybit",
    sockets: (ids) => [{ url: "wss://stream.venue.invalid/ws", subscribe: [JSON.stringify({ op: "subscribe", args: ids })] }],
    keepalive: { frame: "protocol-ping", everyMs: 20 },
    stallAfterMs: 200,
    maxLifetimeMs: 60_000,
    decode: (text) => (String(text).includes("rows") ? [{ kind: "updates", updates: [{ venueMarketId: "A", fields: {}, venueTime: null }] }] : [{ kind: "ack" }]),
  },
  venueMarketIds: ["A"],
  resolveUrl: () => process.env.REPLAY_URL,
  onUpdates: () => live(),
  onState: () => {},
});
connection.start();
await new Promise((resolve) => (live = resolve));
await connection.close();
process.stdout.write("closed");
`,
      );
      const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          ["--import", "tsx", script],
          { cwd: ROOT, timeout: 20_000, env: { ...process.env, REPLAY_URL: server.url } },
          (_error, out) => resolve({ code: child.exitCode, stdout: out }),
        );
      });
      // A socket or a referenced timer left behind would keep the child running until the timeout kills it.
      expect(stdout).toBe("closed");
      expect(code).toBe(0);
      expect(server.connections()).toHaveLength(1);
      await vi.waitFor(() => expect(server.clients()).toEqual([]), WAIT);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Binance USDⓈ-M / COIN-M `markPriceUpdate` frames as recorded (tests/fixtures/streams/binance/SOURCES.md),
// through a decode written here: the venue's own module is tested by its own suite.
const BINANCE_FRAMES = readFileSync(join(ROOT, "tests/fixtures/streams/binance/markPriceUpdate_2021-04-01_cmp.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.length > 0);

interface BinanceRow {
  e: string;
  E: number;
  s: string;
  p: string;
  i?: string;
  r: string;
  T: number;
}

function decodeBinance(frame: string | Buffer): StreamEvent[] {
  let message: { result?: unknown; id?: unknown; data?: BinanceRow | BinanceRow[] };
  try {
    message = JSON.parse(String(frame)) as typeof message;
  } catch {
    return [{ kind: "error", message: "not JSON" }];
  }
  if ("result" in message && "id" in message) return [{ kind: "ack" }];
  const rows = Array.isArray(message.data) ? message.data : message.data ? [message.data] : [];
  const updates = rows
    .filter((row) => row.e === "markPriceUpdate")
    .map((row): StreamUpdate => ({
      venueMarketId: row.s,
      fields: {
        markPrice: Number(row.p),
        ...(row.i === undefined ? {} : { indexPrice: Number(row.i) }),
        // T = 0 on delivery contracts: no funding, not a funding time of 1970.
        fundingRate: row.T === 0 ? null : Number(row.r),
        nextFundingAt: row.T === 0 ? null : row.T,
      },
      venueTime: row.E,
    }));
  return [{ kind: "updates", updates }];
}

const BINANCE_SUBSCRIBE = '{"method":"SUBSCRIBE","params":["!markPrice@arr@1s"],"id":1}';

function binanceProtocol(): VenueStreamProtocol {
  return {
    venue: "binance",
    sockets: () => [{ url: "wss://fstream.binance.com/stream", subscribe: [BINANCE_SUBSCRIBE] }],
    // The recording ends after four frames: a short stall limit would resubscribe and replay it.
    stallAfterMs: 5_000,
    decode: decodeBinance,
  };
}

const binanceAck = (frame: string) => (frame === BINANCE_SUBSCRIBE ? '{"result":null,"id":1}' : undefined);

describe("StreamConnection on recorded Binance frames", () => {
  const RECORDED = [
    "BTCUSD_PERP@1617309477000",
    "BTCUSD_PERP@1617309501002",
    "ETHUSD_PERP@1617309501002",
    "BTCUSDT@1617308820003",
    "BTCUSDT@1617309024002",
    "ETHUSDT@1617309024002",
  ];
  const played = (seen: Seen) => seen.updates.flatMap(({ updates }) => updates.map((update) => `${update.venueMarketId}@${update.venueTime}`));

  it("plays every recorded frame in order, and again after a drop and a resubscribe", async () => {
    const server = await replayServer({ frames: BINANCE_FRAMES, intervalMs: 10, answer: binanceAck });
    const { connection, seen } = open(server, binanceProtocol(), ["BTCUSDT", "ETHUSDT"], { backoff: { initialMs: 50, maxMs: 1_000 } });
    await vi.waitFor(() => expect(played(seen)).toEqual(RECORDED), WAIT);
    expect(server.connections()[0]?.path).toBe("/stream");
    expect(server.connections()[0]?.sent).toEqual([BINANCE_SUBSCRIBE]);
    const usdt = seen.updates.at(-1)!.updates[0]!;
    expect(usdt.fields).toEqual({ markPrice: 59022.53514719, indexPrice: 58936.68384, fundingRate: 0.00058959, nextFundingAt: 1617321600000 });

    server.drop();
    await vi.waitFor(() => expect(played(seen)).toEqual([...RECORDED, ...RECORDED]), WAIT);
    expect(seen.reconnects).toHaveLength(1);
    expect(server.connections()[1]?.sent).toEqual([BINANCE_SUBSCRIBE]);
    expect(connection.state).toBe("live");
    expect(seen.errors).toEqual([]);
  });

  it("names the market the venue stopped sending, not the ones still flowing", async () => {
    const usdtArray = BINANCE_FRAMES.find((line) => line.includes("!markPrice@arr") && line.includes("ETHUSDT"))!;
    const server = await replayServer({ frames: [usdtArray], loop: true, intervalMs: 20, answer: binanceAck });
    const { connection } = open(server, binanceProtocol(), ["BTCUSDT", "ETHUSDT"]);
    await vi.waitFor(() => expect(connection.state).toBe("live"), WAIT);
    expect(connection.silentMarkets(150)).toEqual([]);

    server.withoutMarket((frame) => {
      const message = JSON.parse(frame) as { stream: string; data: BinanceRow[] };
      return JSON.stringify({ ...message, data: message.data.filter((row) => row.s !== "ETHUSDT") });
    });
    await vi.waitFor(() => expect(connection.silentMarkets(150)).toEqual(["ETHUSDT"]), WAIT);
    // One quiet market is not a quiet socket.
    expect(connection.state).toBe("live");

    server.withoutMarket(undefined);
    await vi.waitFor(() => expect(connection.silentMarkets(150)).toEqual([]), WAIT);
  });
});
