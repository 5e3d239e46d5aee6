import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { overrideFetch, overrideStreamUrl } from "@/lib/market/ingest/ingest-config";
import type { VenueId } from "@/lib/market/model/types";
import { StreamConnection } from "@/lib/market/venues/streams/stream-connection";
import type { StreamEvent, StreamFields, StreamUpdate } from "@/lib/market/venues/streams/stream-protocol";
import { STREAM_PROTOCOLS } from "@/lib/market/venues/streams/stream-protocols";
import { startStreamPlayer, VENUE_SPECS, type Row, type Stamp } from "./freshness-streams";
import { createVenueFetcher } from "./replay-venue-fetcher";

// The bench's frame builders against the venues' own protocols, for the markets the widened REST
// replay lists (Lighter's integer market ids, dYdX's tickers, GRVT's instruments): every channel's
// frame and every answer to a subscribe decode into updates for exactly the intended markets with
// the row's rate; played by the stream player to real StreamConnections (KuCoin's token asked of the
// player), every stamped change arrives as an update of that market with that rate.

const NOW = Date.UTC(2026, 11, 2, 10, 0, 0, 250);
const NEXT = Date.UTC(2026, 11, 2, 16);
const ASSETS = 3;
const venues = Object.keys(VENUE_SPECS) as VenueId[];
/** The venues whose replay the stream player serves end to end here (the ones with answers, tables or a token). */
const PLAYED: VenueId[] = ["lighter", "dydx", "bitmex", "kucoinfutures", "grvt"];

let marketIds: Partial<Record<VenueId, string[]>> = {};
beforeAll(async () => {
  const fetcher = createVenueFetcher({ assets: ASSETS });
  for (const venue of venues) {
    const result = await fetcher(venue, { timeoutMs: 30_000 });
    if (result.status === "ok") marketIds[venue] = result.snapshots.filter((m) => /^A\d{4}$/.test(m.base)).map((m) => m.venueMarketId);
  }
}, 120_000);
afterAll(() => {
  marketIds = {};
});

/** Distinct rates of both signs at the bench's size (the player's ±2e-4 and a unique tail), and moving marks. */
const rowsOf = (venue: VenueId): Row[] =>
  marketIds[venue]!.map((id, i) => ({ id, rate: Number(((i % 2 ? -1 : 1) * (2e-4 + (i + 1) * 1.23e-10)).toPrecision(12)), mark: 101.5 + i, next: NEXT }));

function updatesOf(events: StreamEvent[]): StreamUpdate[] {
  return events.flatMap((event) => (event.kind === "updates" ? event.updates : []));
}
const errorsOf = (events: StreamEvent[]) => events.filter((event) => event.kind === "error");

describe("the freshness bench's frames", () => {
  it("lists the widened markets of every replayed venue", () => {
    // At least one market an asset (Bybit lists a USDT and a USDC line for each).
    for (const venue of venues) expect(marketIds[venue]!.length, venue).toBeGreaterThanOrEqual(ASSETS);
    expect(marketIds.lighter!.every((id) => /^\d+$/.test(id))).toBe(true);
  });

  it.each(venues)("%s: each channel's frames decode into updates of the intended markets, the rate channels with the row's rate", (venue) => {
    const spec = VENUE_SPECS[venue]!;
    const protocol = STREAM_PROTOCOLS[venue]!;
    const rows = rowsOf(venue);
    for (const channel of spec.channels) {
      const frames = channel.all ? [channel.frame(rows, NOW)] : rows.map((row) => channel.frame([row], NOW));
      const events = frames.flatMap((frame) => protocol.decode(frame, NOW));
      expect(errorsOf(events)).toEqual([]);
      const updates = updatesOf(events);
      expect(updates.map((u) => u.venueMarketId).sort()).toEqual(rows.map((r) => r.id).sort());
      for (const row of rows) {
        const { fields } = updates.find((u) => u.venueMarketId === row.id)!;
        if (channel.rate) expect(fields.fundingRate, `${venue} ${row.id}`).toBe(row.rate);
        else expect(fields.fundingRate).toBeUndefined();
        if (fields.markPrice !== undefined) expect(fields.markPrice).toBe(row.mark);
        if (fields.nextFundingAt !== undefined && venue !== "lighter") expect(fields.nextFundingAt).toBe(NEXT);
      }
    }
  });

  it.each(PLAYED)("%s: the answers to its subscribe frames decode without error; a snapshot states every market's rate", (venue) => {
    const spec = VENUE_SPECS[venue]!;
    const protocol = STREAM_PROTOCOLS[venue]!;
    const rows = rowsOf(venue);
    const sent = protocol.sockets(rows.map((r) => r.id)).flatMap((plan) => plan.subscribe);
    const events = sent.flatMap((frame) => (spec.answer?.(frame, rows, NOW) ?? []).flatMap((answer) => protocol.decode(answer, NOW)));
    expect(errorsOf(events)).toEqual([]);
    expect(events.filter((e) => e.kind === "ack")).toHaveLength(venue === "dydx" || venue === "lighter" ? 1 : sent.length);
    const updates = updatesOf(events);
    if (venue === "kucoinfutures" || venue === "grvt") return expect(updates).toEqual([]);
    expect(updates.map((u) => [u.venueMarketId, u.fields.fundingRate])).toEqual(rows.map((r) => [r.id, r.rate]));
  });

  it("answers KuCoin's bullet-public with a token for the player's own endpoint, and nothing else over HTTP", async () => {
    const player = await startStreamPlayer({ markets: { kucoinfutures: rowsOf("kucoinfutures") }, rateChangesPerSecond: 1, pushScale: 1, onStamp: () => undefined });
    try {
      const url = await STREAM_PROTOCOLS.kucoinfutures!.connectUrl!(VENUE_SPECS.kucoinfutures!.rest!.url, overrideFetch(player.url));
      expect(overrideStreamUrl(player.url, url)).toMatch(new RegExp(`^${player.url}/ws-api-futures\\.kucoin\\.com/\\?token=bench-\\d+$`));
      const other = await fetch(`${player.url.replace("ws:", "http:")}/api-futures.kucoin.com/api/v1/other`, { method: "POST" });
      expect(other.status).toBe(404);
    } finally {
      await player.close();
    }
  });

  it("answers GET /bench-state/<venue> with each played market's state as its stream tells it, and 404 for a venue it does not play", async () => {
    const stamps: Stamp[] = [];
    const markets = { lighter: rowsOf("lighter"), bybit: rowsOf("bybit") };
    const player = await startStreamPlayer({ markets, rateChangesPerSecond: 50, pushScale: 0.02, onStamp: (stamp) => stamps.push(stamp) });
    /** Each market's rate as the stream last told it, and how many frames told any. */
    const told = new Map<string, number | null | undefined>();
    let frames = 0;
    const connections = (["lighter", "bybit"] as const).map((venue) => {
      const connection = new StreamConnection({
        protocol: STREAM_PROTOCOLS[venue]!,
        venueMarketIds: markets[venue].map((m) => m.id),
        resolveUrl: (url) => overrideStreamUrl(player.url, url),
        fetch: overrideFetch(player.url),
        onUpdates: (updates) => {
          if (venue !== "lighter") return;
          frames += 1;
          for (const update of updates) told.set(update.venueMarketId, update.fields.fundingRate);
        },
        onState: () => undefined,
        onError: () => undefined,
      });
      connection.start();
      return connection;
    });
    const root = player.url.replace("ws:", "http:");
    try {
      await expect.poll(() => new Set(stamps.map((s) => s.venue)).size, { timeout: 15_000, interval: 50 }).toBe(2);
      // No change after this; once a frame of every market arrived since, the stream has told the current state.
      player.changing([]);
      const since = frames;
      await expect.poll(() => frames, { timeout: 5_000, interval: 20 }).toBeGreaterThan(since + 1);
      const state = (await (await fetch(`${root}/bench-state/lighter`)).json()) as Record<string, StreamFields>;
      expect(Object.keys(state).sort()).toEqual(markets.lighter.map((m) => m.id).sort());
      for (const id of Object.keys(state)) expect(state[id]!.fundingRate, id).toBe(told.get(id));
      // The changes the bench stamped are in it (the last of each market), and every market states a price.
      const last = new Map(stamps.filter((s) => s.venue === "lighter").map((s) => [s.id, s.rate]));
      expect(last.size).toBeGreaterThan(0);
      for (const [id, rate] of last) expect(state[id]!.fundingRate, id).toBe(rate);
      for (const id of Object.keys(state)) expect(state[id]!.markPrice).toBeGreaterThan(0);
      expect((await fetch(`${root}/bench-state/binance`)).status).toBe(404);
      expect((await fetch(`${root}/bench-state/`)).status).toBe(404);
    } finally {
      await Promise.all(connections.map((c) => c.close()));
      await player.close();
    }
  }, 30_000);

  it("plays a socket that connects after the venue had none the current frames, not every frame nobody heard meanwhile", async () => {
    // The player's ticks run only when the test advances them, on a clock the test sets: nothing is
    // due between the new socket's connection and its subscribe.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    let clock = Date.now();
    const markets = { grvt: rowsOf("grvt") };
    const player = await startStreamPlayer({ markets, rateChangesPerSecond: 1, pushScale: 1, now: () => clock, onStamp: () => undefined });
    const sockets: WebSocket[] = [];
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    /** A GRVT socket subscribed to every market, once the player acknowledged each subscribe frame: its data frames are counted. */
    const subscribed = async () => {
      const [plan] = STREAM_PROTOCOLS.grvt!.sockets(markets.grvt.map((m) => m.id));
      const socket = new WebSocket(overrideStreamUrl(player.url, plan!.url));
      sockets.push(socket);
      const heard = { acks: 0, frames: 0 };
      socket.on("message", (data: Buffer) => (String(data).includes('"feed"') ? (heard.frames += 1) : (heard.acks += 1)));
      await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
      for (const frame of plan!.subscribe) socket.send(frame);
      for (let i = 0; i < 500 && heard.acks < plan!.subscribe.length; i++) await wait(10);
      expect(heard.acks).toBe(plan!.subscribe.length);
      return { socket, heard };
    };
    /** One of the player's ticks, `ms` of the player's clock after the last. */
    const tick = async (ms: number) => {
      clock += ms;
      vi.advanceTimersByTime(20);
      await wait(50);
    };
    const perSecond = (1_000 / VENUE_SPECS.grvt!.channels[0]!.everyMs) * markets.grvt.length;
    try {
      const first = await subscribed();
      await tick(1_000);
      await tick(1_000);
      expect(first.heard.frames).toBeGreaterThanOrEqual(perSecond);
      first.socket.close();
      for (let i = 0; i < 500 && (await player.counts())[0]!.sockets > 0; i++) await wait(10);
      // A minute with no socket: the venue's frames of that minute are heard by no one.
      await tick(30_000);
      await tick(30_000);
      const second = await subscribed();
      await tick(1_000);
      // A second's frames, not the minute's (60 × perSecond) nobody was there to hear.
      expect(second.heard.frames).toBeGreaterThan(0);
      expect(second.heard.frames).toBeLessThanOrEqual(2 * perSecond);
    } finally {
      vi.useRealTimers();
      for (const socket of sockets) socket.terminate();
      await player.close();
    }
  }, 30_000);

  it("plays every stamped change of every venue to real stream connections as an update of that market with that rate", async () => {
    const stamps: Stamp[] = [];
    const markets = Object.fromEntries(venues.map((venue) => [venue, rowsOf(venue)]));
    // Periods ×0.02: a minute's channel comes round in 1.2 s.
    const player = await startStreamPlayer({ markets, rateChangesPerSecond: 4, pushScale: 0.02, onStamp: (stamp) => stamps.push(stamp) });
    const received: { venue: VenueId; update: StreamUpdate; at: number }[] = [];
    const errors: string[] = [];
    const connections = venues.map((venue) => {
      const connection = new StreamConnection({
        protocol: STREAM_PROTOCOLS[venue]!,
        venueMarketIds: markets[venue]!.map((m) => m.id),
        resolveUrl: (url) => overrideStreamUrl(player.url, url),
        fetch: overrideFetch(player.url),
        onUpdates: (updates, at) => received.push(...updates.map((update) => ({ venue, update, at }))),
        onState: () => undefined,
        onError: (message) => errors.push(`${venue}: ${message}`),
      });
      connection.start();
      return connection;
    });
    try {
      await expect.poll(() => venues.filter((venue) => stamps.filter((s) => s.venue === venue).length >= 2), { timeout: 15_000, interval: 100 }).toEqual(venues);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(Object.fromEntries(venues.map((venue, i) => [venue, connections[i]!.state]))).toEqual(Object.fromEntries(venues.map((venue) => [venue, "live"])));
      for (const stamp of stamps.filter((s) => Date.now() - s.sentAt > 200)) {
        const arrived = received.find((r) => r.venue === stamp.venue && r.update.venueMarketId === stamp.id && r.update.fields.fundingRate === stamp.rate);
        expect(arrived, `${stamp.venue} ${stamp.id} ${stamp.rate}`).toBeDefined();
        expect(arrived!.at).toBeGreaterThanOrEqual(Math.floor(stamp.sentAt));
      }
      expect(errors).toEqual([]);
      // Every update names a market the venue lists.
      for (const { venue, update } of received) expect(markets[venue]!.map((m) => m.id)).toContain(update.venueMarketId);
    } finally {
      await Promise.all(connections.map((c) => c.close()));
      await player.close();
    }
  }, 30_000);
});
