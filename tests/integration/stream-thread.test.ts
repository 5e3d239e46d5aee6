import { afterEach, describe, expect, it, vi } from "vitest";
import type { FeedStatusRecorder } from "@/lib/market/ingest/feed-status";
import { LiveFeeds } from "@/lib/market/ingest/live-feeds";
import { StreamThread } from "@/lib/market/ingest/stream-thread";
import type { MarketSnapshot } from "@/lib/market/model/types";
import { metrics } from "@/lib/observability/metrics";
import { binanceStream } from "@/lib/market/venues/streams/binance";
import { BINANCE_ARRAY_FRAME, binanceMarket, okRound, startBinanceReplay } from "@/tests/support/market/binance-stream-fixture";
import type { WsReplayServer } from "@/tests/support/ws-replay-server";

// The live feeds over the stream thread (stream-thread.ts): the real thread, loaded from the
// sources, hosting the Binance protocol against the loopback replay server. The recorded frame's
// markets cross once (the same frame again and again is no news), frames are counted, a dropped
// socket reconnects, a stall hands the venue to polling and recovery takes it back, a malformed
// frame is an error, and the thread's death reports the stream down until it is started again.

const WAIT = { timeout: 20_000, interval: 20 };

let server: WsReplayServer | undefined;
let feeds: LiveFeeds | undefined;
let thread: StreamThread | undefined;
afterEach(async () => {
  await feeds?.close();
  await thread?.close();
  await server?.close();
});

describe("the stream thread", () => {
  it("conflated updates, frames counted, reconnect, stall to polling, errors, the thread's death and restart", async () => {
    server = await startBinanceReplay(20);
    const replay = server;
    const pushed: MarketSnapshot[] = [];
    const transports: string[] = [];
    const reconnects: number[] = [];
    let frames = 0;
    let lastMessageAt = 0;
    const status: FeedStatusRecorder = {
      message: (_venue, receivedAt, count = 1) => {
        frames += count;
        lastMessageAt = Math.max(lastMessageAt, receivedAt);
      },
      reconnect: (_venue, at) => reconnects.push(at),
      transport: (venue, transport, reason) => transports.push(`${venue} ${transport}${reason ? ` (${reason})` : ""}`),
      published: () => undefined,
    };
    thread = new StreamThread({
      override: replay.url,
      conflation: { moveBps: 10, refreshMs: 60_000 },
      flushMs: 20,
      backoff: { initialMs: 50, maxMs: 200 },
      restartAfterMs: 100,
    });
    feeds = new LiveFeeds({
      // Stalls in a fraction of a second instead of Binance's five.
      protocols: { binance: { ...binanceStream, stallAfterMs: 400 } },
      sink: { push: (changed) => pushed.push(...changed) },
      status,
      fetcher: async (venue) => okRound(venue, [binanceMarket("BTC", { markPrice: 60_000, observedAt: Date.now() }), binanceMarket("ETH", { markPrice: 2_000, observedAt: Date.now() })]),
      openStream: thread.open,
      cadenceMs: () => 300,
    });
    feeds.onRound([okRound("binance", [binanceMarket("BTC"), binanceMarket("ETH")])]);

    // Polled until the thread's socket carries data (starting a thread that loads TypeScript takes a while).
    const streamed = () => pushed.filter((s) => s.transport === "stream");
    await vi.waitFor(() => expect(streamed()).toHaveLength(2), WAIT);
    // The thread rewrote the venue's URL to the replay server from the override alone.
    expect(replay.clients()[0]).toMatchObject({ path: "/fstream.binance.com/market/ws", sent: [expect.stringContaining("!markPrice@arr@1s")] });
    const btc = streamed().find((s) => s.venueMarketId === "BTCUSDT")!;
    expect(btc).toMatchObject({ markPrice: 59022.53514719, indexPrice: 58936.68384, fundingRate: 0.00058959, observedAt: 1617309024002, transport: "stream" });
    expect(btc).toMatchObject({ fundingIntervalHours: 8, openInterestUsd: 1_000_000 });
    await vi.waitFor(() => expect(transports).toContain("binance stream"), WAIT);

    // Dozens of frames, every one counted; none is news after the first, so nothing more is pushed.
    await vi.waitFor(() => expect(frames).toBeGreaterThanOrEqual(20), WAIT);
    expect(lastMessageAt).toBeGreaterThan(Date.now() - 10_000);
    expect(streamed()).toHaveLength(2);
    // Each second the thread reports its longest event-loop delay, for GET /metrics.
    const loopSeconds = async () => (await metrics().streamThreadLoopDelay.get()).values.find((v) => v.metricName === "fods_stream_thread_loop_delay_seconds_count")?.value ?? 0;
    const reported = await loopSeconds();
    await vi.waitFor(async () => expect(await loopSeconds()).toBeGreaterThan(reported), WAIT);

    const before = reconnects.length;
    replay.drop();
    await vi.waitFor(() => expect(reconnects.length).toBeGreaterThan(before), WAIT);

    const errors = feeds.counts.streamErrors;
    replay.sendMalformed();
    await vi.waitFor(() => expect(feeds!.counts.streamErrors).toBeGreaterThan(errors), WAIT);

    const pushedBeforeStall = pushed.length;
    replay.stall();
    await vi.waitFor(() => expect(transports.some((t) => t.startsWith("binance poll (stream stalled"))).toBe(true), WAIT);
    // The stall's own poll has landed (the drop above may have polled already, so a count of polls
    // would not say so): the feeds now hold its numbers, not the stream's.
    const polledSinceStall = () => new Set(pushed.slice(pushedBeforeStall).flatMap((s) => (s.transport === "poll" ? [s.venueMarketId] : [])));
    await vi.waitFor(() => expect([...polledSinceStall()].sort()).toEqual(["BTCUSDT", "ETHUSDT"]), WAIT);
    const streamedBeforeResume = streamed().length;
    replay.resume();
    await vi.waitFor(() => expect(transports.at(-1)).toBe("binance stream"), WAIT);
    // Back on the stream: the thread hands over its frame again, unchanged as it is, for the feeds hold the poll's numbers.
    await vi.waitFor(() => expect(streamed().slice(streamedBeforeResume).map((s) => [s.venueMarketId, (s.markPrice ?? 0) > 50_000]).sort()).toEqual([["BTCUSDT", true], ["ETHUSDT", false]]), WAIT);

    await thread.terminateThread();
    await vi.waitFor(() => expect(transports.at(-1)).toMatch(/^binance poll \(stream down: the stream thread exited/), WAIT);
    // Started again after its wait, with the stream reopened and live.
    await vi.waitFor(() => expect(transports.at(-1)).toBe("binance stream"), WAIT);

    await feeds.close();
    feeds = undefined;
    await vi.waitFor(() => expect(replay.clients()).toEqual([]), WAIT);
  }, 60_000);

  it("reports the markets silent on a live stream, which the feeds poll", async () => {
    const frame = JSON.parse(BINANCE_ARRAY_FRAME) as { data: { s: string }[] };
    const btcOnly = JSON.stringify({ ...frame, data: frame.data.filter((row) => row.s === "BTCUSDT") });
    server = await startBinanceReplay(20, btcOnly);
    const replay = server;
    thread = new StreamThread({ override: replay.url, conflation: { moveBps: 10, refreshMs: 60_000 }, flushMs: 20 });
    feeds = new LiveFeeds({
      protocols: { binance: { ...binanceStream, stallAfterMs: 300 } },
      sink: { push: () => undefined },
      status: { message: () => undefined, reconnect: () => undefined, transport: () => undefined, published: () => undefined },
      fetcher: async (venue) => okRound(venue, [binanceMarket("BTC", { observedAt: Date.now() }), binanceMarket("ETH", { observedAt: Date.now() })]),
      openStream: thread.open,
      cadenceMs: () => 100,
      silenceFactor: 2,
    });
    feeds.onRound([okRound("binance", [binanceMarket("BTC"), binanceMarket("ETH")])]);
    // ETHUSDT never comes: once the stream is live the thread names it silent, and the feeds poll for it.
    await vi.waitFor(() => expect(feeds!.counts.silencePolls).toBeGreaterThanOrEqual(1), WAIT);
  }, 30_000);
});
