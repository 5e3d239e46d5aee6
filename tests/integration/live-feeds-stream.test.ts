import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { FeedStatusRecorder } from "@/lib/market/ingest/feed-status";
import { overrideStreamUrl } from "@/lib/market/ingest/ingest-config";
import { LiveFeeds } from "@/lib/market/ingest/live-feeds";
import type { MarketSnapshot } from "@/lib/market/model/types";
import { binanceStream } from "@/lib/market/venues/streams/binance";
import { hyperliquidStream } from "@/lib/market/venues/streams/hyperliquid";
import { StreamConnection } from "@/lib/market/venues/streams/stream-connection";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { binanceMarket, okRound, startBinanceReplay } from "@/tests/support/market/binance-stream-fixture";
import { startWsReplayServer, type WsReplayServer } from "@/tests/support/ws-replay-server";

// The live feeds over a real StreamConnection and the Binance protocol, against the loopback replay
// server playing a recorded all-markets frame: what a round lists is subscribed, the frame's
// changes reach the sink merged and an unchanged repeat does not, a stall hands the venue to
// polling and recovery takes it back, a dropped socket is a reconnect.

const WAIT = { timeout: 20_000, interval: 20 };

let server: WsReplayServer | undefined;
let feeds: LiveFeeds | undefined;
afterEach(async () => {
  await feeds?.close();
  await server?.close();
});

describe("live feeds over a venue stream", () => {
  it("stream, unchanged repeats, stall to polling, recovery, reconnect", async () => {
    server = await startBinanceReplay(50);
    const replay = server;
    const pushed: MarketSnapshot[] = [];
    const transports: string[] = [];
    const reconnects: number[] = [];
    const status: FeedStatusRecorder = {
      message: () => undefined,
      reconnect: (_venue, at) => reconnects.push(at),
      transport: (venue, transport, reason) => transports.push(`${venue} ${transport}${reason ? ` (${reason})` : ""}`),
      published: () => undefined,
    };
    let polls = 0;
    feeds = new LiveFeeds({
      // Stalls in a fraction of a second instead of Binance's five.
      protocols: { binance: { ...binanceStream, stallAfterMs: 400 } },
      sink: { push: (changed) => pushed.push(...changed) },
      status,
      fetcher: async (venue) => {
        polls++;
        return okRound(venue, [binanceMarket("BTC", { markPrice: 60_000, observedAt: Date.now() }), binanceMarket("ETH", { markPrice: 2_000, observedAt: Date.now() })]);
      },
      openStream: (options) => new StreamConnection({ ...options, backoff: { initialMs: 50, maxMs: 200 } }),
      cadenceMs: () => 300,
      resolveUrl: (url) => overrideStreamUrl(replay.url, url),
    });
    feeds.onRound([okRound("binance", [binanceMarket("BTC"), binanceMarket("ETH")])]);

    await vi.waitFor(() => expect(pushed).toHaveLength(2), WAIT);
    expect(replay.clients()[0]).toMatchObject({ path: "/fstream.binance.com/market/ws", sent: [expect.stringContaining("!markPrice@arr@1s")] });
    const btc = pushed.find((s) => s.venueMarketId === "BTCUSDT")!;
    expect(btc).toMatchObject({ markPrice: 59022.53514719, indexPrice: 58936.68384, fundingRate: 0.00058959, observedAt: 1617309024002, transport: "stream" });
    // What a stream never carries is the round's.
    expect(btc).toMatchObject({ fundingIntervalHours: 8, openInterestUsd: 1_000_000, takerFee: 0.0005 });
    await vi.waitFor(() => expect(transports).toContain("binance stream"), WAIT);

    // The same frame again and again changes nothing.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pushed).toHaveLength(2);
    expect(polls).toBe(0);

    replay.stall();
    await vi.waitFor(() => expect(transports.some((t) => t.startsWith("binance poll (stream stalled"))).toBe(true), WAIT);
    await vi.waitFor(() => expect(pushed.filter((s) => s.transport === "poll").map((s) => s.markPrice).sort()).toEqual([2_000, 60_000]), WAIT);
    await vi.waitFor(() => expect(polls).toBeGreaterThanOrEqual(2), WAIT);

    replay.resume();
    await vi.waitFor(() => expect(transports.at(-1)).toBe("binance stream"), WAIT);
    // Back on the stream: its frame differs from the polled numbers, so it is news again; polling stops.
    await vi.waitFor(() => expect(pushed.at(-1)).toMatchObject({ transport: "stream", markPrice: expect.any(Number) }), WAIT);
    const pollsAtRecovery = polls;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(polls).toBeLessThanOrEqual(pollsAtRecovery + 1); // at most the one already under way

    const before = reconnects.length;
    replay.drop();
    await vi.waitFor(() => expect(reconnects.length).toBeGreaterThan(before), WAIT);

    await feeds.close();
    feeds = undefined;
    await vi.waitFor(() => expect(replay.clients()).toEqual([]), WAIT);
  }, 60_000);

  it("hyperliquid: subscribes each coin, and its coin-keyed contexts land on the connector's market ids", async () => {
    const fixtures = path.join(__dirname, "../fixtures/streams/hyperliquid");
    const recorded = (file: string, channel: string) =>
      readFileSync(path.join(fixtures, file), "utf8").split("\n").find((line) => line.includes(`"channel":"${channel}"`))!;
    const btcFrame = recorded("activeAssetCtx_BTC_built_from_probe.jsonl", "activeAssetCtx");
    const moodengFrame = recorded("activeAssetCtx_MOODENG_tardis.jsonl", "activeAssetCtx");
    // A coin the round does not list (the venue would close the socket rather than send it; a frame of one is ignored).
    const unlisted = btcFrame.replace('"coin":"BTC"', '"coin":"ETH"');
    server = await startWsReplayServer({
      frames: [btcFrame, unlisted, "{\"channel\":\"activeAssetCtx\",\"data\":{}}", moodengFrame],
      intervalMs: 20,
      answer: (frame) =>
        frame.includes('"subscribe"') ? JSON.stringify({ channel: "subscriptionResponse", data: JSON.parse(frame) as unknown }) : undefined,
    });
    const replay = server;
    const pushed: MarketSnapshot[] = [];
    const hl = (coin: string, venueMarketId: string) =>
      makeSnapshot({ exchange: "hyperliquid", base: coin, venueBase: coin, venueMarketId, market: `${coin}/USDC:USDC`, fundingIntervalHours: 1, observedAt: Date.now() });
    const errors: string[] = [];
    feeds = new LiveFeeds({
      protocols: { hyperliquid: hyperliquidStream },
      sink: { push: (changed) => pushed.push(...changed) },
      status: { message: () => undefined, reconnect: () => undefined, transport: () => undefined, published: () => undefined },
      fetcher: async (venue) => ({ status: "stale", exchange: venue, fetchedAt: Date.now(), error: "not polled here" }),
      openStream: (options) =>
        new StreamConnection({
          ...options,
          onError: (message) => {
            errors.push(message);
            options.onError?.(message);
          },
        }),
      cadenceMs: () => 60_000,
      resolveUrl: (url) => overrideStreamUrl(replay.url, url),
    });
    // ccxt's market ids are asset indexes; MOODENG's index here is made up.
    feeds.onRound([okRound("hyperliquid", [hl("BTC", "0"), hl("MOODENG", "187")])]);

    await vi.waitFor(() => expect(pushed).toHaveLength(2), WAIT);
    expect(replay.clients()[0]!.path).toBe("/api.hyperliquid.xyz/ws");
    expect(replay.clients()[0]!.sent).toEqual([
      '{"method":"subscribe","subscription":{"type":"activeAssetCtx","coin":"BTC"}}',
      '{"method":"subscribe","subscription":{"type":"activeAssetCtx","coin":"MOODENG"}}',
    ]);
    expect(pushed.map((s) => [s.venueMarketId, s.fundingRate, s.markPrice, s.indexPrice, s.transport])).toEqual([
      ["0", 0.0000018952, 84148, 84198, "stream"],
      ["187", 0.00004863, 0.19963, 0.1995, "stream"],
    ]);
    // The unlisted coin is counted, the frame without a coin reported; neither reached a market.
    expect(feeds.counts.unknownUpdates).toBe(1);
    expect(errors).toEqual(["hyperliquid: activeAssetCtx without a coin and its ctx"]);
    expect(feeds.counts.streamErrors).toBe(1);
  }, 30_000);
});
