import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import type { MarketSnapshot, VenueId, VenueSnapshotResult } from "../model/types";
import type { VenueFetcher } from "../venues/fetch-all-venues";
import type { StreamUpdate, VenueStreamProtocol } from "../venues/streams/stream-protocol";
import type { FeedStatusRecorder } from "./feed-status";
import { LiveFeeds } from "./live-feeds";
import type { LiveStream, LiveStreamOptions, LiveStreamState } from "./live-stream";

const T0 = Date.UTC(2026, 11, 2, 13, 0);
const CADENCE = 10_000;
const STALL = 5_000;

class FakeStream implements LiveStream {
  state: LiveStreamState = "connecting";
  started = false;
  closed = false;
  readonly plans: string[][] = [];
  silent: string[] = [];
  readonly silenceAsked: number[] = [];

  constructor(readonly options: LiveStreamOptions) {
    this.plans.push([...options.venueMarketIds]);
  }
  start() {
    this.started = true;
  }
  setMarkets(ids: readonly string[]) {
    this.plans.push([...ids]);
  }
  silentMarkets(ms: number) {
    this.silenceAsked.push(ms);
    return this.silent;
  }
  async close() {
    this.closed = true;
  }
  become(state: LiveStreamState, reason?: string) {
    this.state = state;
    this.options.onState(state, reason);
  }
  frame(updates: StreamUpdate[], receivedAt = Date.now()) {
    this.options.onUpdates(updates, receivedAt);
  }
}

const protocol = (venue: VenueId): VenueStreamProtocol => ({ venue, sockets: () => [], stallAfterMs: STALL, decode: () => [] });

const btc = (overrides: Partial<MarketSnapshot> = {}) => makeSnapshot({ exchange: "binance", observedAt: T0, ...overrides });
const eth = (overrides: Partial<MarketSnapshot> = {}) =>
  makeSnapshot({ exchange: "binance", base: "ETH", venueMarketId: "ETHUSDT", market: "ETH/USDT:USDT", observedAt: T0, ...overrides });
const xbt = (overrides: Partial<MarketSnapshot> = {}) =>
  makeSnapshot({ exchange: "bitmex", venueMarketId: "XBTUSDT", observedAt: T0, ...overrides });
const ok = (exchange: VenueId, snapshots: MarketSnapshot[], fetchedAt = Date.now()): VenueSnapshotResult => ({
  status: "ok",
  exchange,
  fetchedAt,
  snapshots,
  excluded: { notLinearPerp: 0, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
  warnings: [],
});
const update = (venueMarketId: string, fields: StreamUpdate["fields"], venueTime: number | null = null): StreamUpdate => ({ venueMarketId, fields, venueTime });

function harness(options: { protocols?: Partial<Record<VenueId, VenueStreamProtocol>> } = {}) {
  const streams: FakeStream[] = [];
  const pushed: MarketSnapshot[][] = [];
  const status = { message: vi.fn(), reconnect: vi.fn(), transport: vi.fn(), published: vi.fn() } satisfies FeedStatusRecorder;
  /** What the venues answer when polled (each venue's answer may be replaced between polls). */
  const answers = new Map<VenueId, () => VenueSnapshotResult>();
  const polls: { venue: VenueId; at: number }[] = [];
  const fetcher: VenueFetcher = async (venue) => {
    polls.push({ venue, at: Date.now() });
    const answer = answers.get(venue);
    return answer ? answer() : { status: "stale", exchange: venue, fetchedAt: Date.now(), error: "no answer" };
  };
  const cadenceMs = vi.fn((venue: VenueId, markets: number) => (venue === "bitmex" ? CADENCE + 5_000 : CADENCE) + 0 * markets);
  const feeds = new LiveFeeds({
    protocols: options.protocols ?? { binance: protocol("binance") },
    sink: { push: (changed) => pushed.push([...changed]) },
    status,
    fetcher,
    openStream: (streamOptions) => {
      const stream = new FakeStream(streamOptions);
      streams.push(stream);
      return stream;
    },
    cadenceMs,
  });
  const pollsOf = (venue: VenueId) => polls.filter((p) => p.venue === venue).map((p) => p.at - T0);
  return { feeds, streams, pushed, status, answers, polls, pollsOf, cadenceMs };
}

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("LiveFeeds streams", () => {
  it("opens one stream per streaming venue on the first round, with the round's markets", () => {
    const h = harness();
    h.feeds.onRound([ok("binance", [btc(), eth()]), ok("bitmex", [xbt()]), { status: "stale", exchange: "okx", fetchedAt: T0, error: "down" }]);
    expect(h.streams).toHaveLength(1);
    expect(h.streams[0]!.options.protocol.venue).toBe("binance");
    expect(h.streams[0]!.plans).toEqual([["BTCUSDT", "ETHUSDT"]]);
    expect(h.streams[0]!.started).toBe(true);
    // Until its stream is live a streaming venue is polled too; a venue without a protocol always is.
    expect(h.status.transport.mock.calls).toEqual([
      ["binance", "poll", "stream connecting"],
      ["bitmex", "poll", "no stream for this venue"],
    ]);
  });

  it("merges stream updates over the round's snapshots and pushes what changed", () => {
    const h = harness();
    h.feeds.onRound([ok("binance", [btc(), eth()])]);
    const stream = h.streams[0]!;
    stream.become("live");
    expect(h.status.transport).toHaveBeenLastCalledWith("binance", "stream");
    stream.frame([update("BTCUSDT", { fundingRate: 0.0003, markPrice: 101 }, T0 + 900), update("ETHUSDT", { markPrice: 100 })], T0 + 1_000);
    // ETH's mark was already 100: only BTC changed.
    expect(h.pushed).toEqual([[{ ...btc(), fundingRate: 0.0003, markPrice: 101, observedAt: T0 + 900, transport: "stream" }]]);
    expect(h.status.message).toHaveBeenCalledWith("binance", T0 + 1_000, 1);
  });

  it("pushes nothing for a frame that changes nothing, and counts markets the round did not list", () => {
    const h = harness();
    h.feeds.onRound([ok("binance", [btc()])]);
    const stream = h.streams[0]!;
    stream.become("live");
    stream.frame([update("BTCUSDT", { fundingRate: btc().fundingRate, markPrice: btc().markPrice })]);
    stream.frame([update("SOLUSDT", { markPrice: 3 })]);
    expect(h.pushed).toEqual([]);
    expect(h.feeds.counts.unknownUpdates).toBe(1);
    // Frames with market data still count as messages for the feed's status.
    expect(h.status.message).toHaveBeenCalledTimes(2);
  });

  it("records reconnects", () => {
    const h = harness();
    h.feeds.onRound([ok("binance", [btc()])]);
    h.streams[0]!.options.onReconnect?.(T0 + 42);
    expect(h.status.reconnect).toHaveBeenCalledWith("binance", T0 + 42);
  });

  it("follows a changed market list with setMarkets, and an unchanged one with nothing", () => {
    const h = harness();
    h.feeds.onRound([ok("binance", [btc(), eth()])]);
    h.feeds.onRound([ok("binance", [eth(), btc()])]);
    h.feeds.onRound([ok("binance", [btc()])]);
    expect(h.streams).toHaveLength(1);
    expect(h.streams[0]!.plans).toEqual([["BTCUSDT", "ETHUSDT"], ["BTCUSDT"]]);
  });

  it("takes each round's snapshots as the new base", () => {
    const h = harness();
    h.feeds.onRound([ok("binance", [btc()])]);
    const stream = h.streams[0]!;
    stream.become("live");
    h.feeds.onRound([ok("binance", [btc({ fundingRate: 0.0005 })])]);
    // The stream says what the round said: nothing new.
    stream.frame([update("BTCUSDT", { fundingRate: 0.0005 })]);
    expect(h.pushed).toEqual([]);
  });
});

describe("LiveFeeds with a protocol that keys markets by its own name", () => {
  // As Hyperliquid: the connector's venueMarketId is the asset index, the stream names the coin (venueBase).
  const keyed: VenueStreamProtocol = { ...protocol("hyperliquid"), streamKey: (market) => market.venueBase };
  const coin = (venueBase: string, venueMarketId: string, overrides: Partial<MarketSnapshot> = {}) =>
    makeSnapshot({ exchange: "hyperliquid", base: venueBase.toUpperCase(), venueBase, venueMarketId, market: `${venueBase.toUpperCase()}/USDC:USDC`, observedAt: T0, ...overrides });
  const btcHl = coin("BTC", "0");
  const pepeHl = coin("kPEPE", "159", { markPrice: 0.004 });

  it("subscribes by key, and lands a keyed update on the market of that key", () => {
    const h = harness({ protocols: { hyperliquid: keyed } });
    h.feeds.onRound([ok("hyperliquid", [btcHl, pepeHl])]);
    const stream = h.streams[0]!;
    expect(stream.plans).toEqual([["BTC", "kPEPE"]]);
    stream.become("live");
    stream.frame([update("kPEPE", { fundingRate: 0.0000125, markPrice: 0.0045 })], T0 + 1_000);
    expect(h.pushed).toEqual([[{ ...pepeHl, fundingRate: 0.0000125, markPrice: 0.0045, observedAt: T0 + 1_000, transport: "stream" }]]);
    // The market ids are not keys: an update named "0" is no listed coin.
    stream.frame([update("0", { markPrice: 1 }), update("DOGE", { markPrice: 1 }), update("BTC", { markPrice: 101 })], T0 + 2_000);
    expect(h.pushed).toHaveLength(2);
    expect(h.pushed[1]!.map((s) => [s.venueMarketId, s.markPrice])).toEqual([["0", 101]]);
    expect(h.feeds.counts.unknownUpdates).toBe(2);
  });

  it("follows a coin's new market id and a changed coin list from the next round", () => {
    const h = harness({ protocols: { hyperliquid: keyed } });
    h.feeds.onRound([ok("hyperliquid", [btcHl, pepeHl])]);
    const stream = h.streams[0]!;
    stream.become("live");
    h.feeds.onRound([ok("hyperliquid", [coin("BTC", "7"), pepeHl])]);
    // Same coins: the subscription stays as it is.
    expect(stream.plans).toEqual([["BTC", "kPEPE"]]);
    stream.frame([update("BTC", { markPrice: 102 })], T0 + 1_000);
    expect(h.pushed.at(-1)!.map((s) => s.venueMarketId)).toEqual(["7"]);
    h.feeds.onRound([ok("hyperliquid", [coin("BTC", "7"), coin("ETH", "1")])]);
    expect(stream.plans.at(-1)).toEqual(["BTC", "ETH"]);
    stream.frame([update("kPEPE", { markPrice: 0.005 })], T0 + 2_000);
    expect(h.pushed).toHaveLength(1);
    expect(h.feeds.counts.unknownUpdates).toBe(1);
  });

  it("keeps the first of two markets under one key, and streams none under an empty key", () => {
    const h = harness({ protocols: { hyperliquid: keyed } });
    h.feeds.onRound([ok("hyperliquid", [btcHl, coin("BTC", "110000"), coin("ETH", "1", { venueBase: "" as string })])]);
    expect(h.streams[0]!.plans).toEqual([["BTC"]]);
    h.streams[0]!.become("live");
    h.streams[0]!.frame([update("BTC", { markPrice: 103 })], T0 + 1_000);
    expect(h.pushed).toEqual([[{ ...btcHl, markPrice: 103, observedAt: T0 + 1_000, transport: "stream" }]]);
  });

  it("polls the market ids of the keys that fall silent", async () => {
    const h = harness({ protocols: { hyperliquid: keyed } });
    h.answers.set("hyperliquid", () => ok("hyperliquid", [coin("BTC", "0", { markPrice: 90, observedAt: Date.now() }), coin("kPEPE", "159", { markPrice: 0.003, observedAt: Date.now() })]));
    h.feeds.onRound([ok("hyperliquid", [btcHl, pepeHl], T0)]);
    const stream = h.streams[0]!;
    stream.become("live");
    stream.silent = ["kPEPE", "NOTLISTED"];
    await vi.advanceTimersByTimeAsync(STALL);
    expect(h.pollsOf("hyperliquid")).toEqual([5_000]);
    // Only the silent coin's market changes, under its market id.
    expect(h.pushed).toEqual([[{ ...pepeHl, markPrice: 0.003, observedAt: T0 + 5_000, transport: "poll" }]]);
    // A silent key no listed market has is no reason to poll.
    stream.silent = ["NOTLISTED"];
    await vi.advanceTimersByTimeAsync(STALL * 6);
    expect(h.pollsOf("hyperliquid")).toEqual([5_000]);
    await h.feeds.close();
  });
});

describe("LiveFeeds polling", () => {
  it("polls a venue without a protocol at its cadence, counted from the round's fetch, and pushes what changed as polled", async () => {
    const h = harness();
    let rate = 0.0001;
    h.answers.set("bitmex", () => ok("bitmex", [xbt({ fundingRate: rate, observedAt: Date.now() })]));
    h.feeds.onRound([ok("bitmex", [xbt()], T0)]);
    expect(h.cadenceMs).toHaveBeenCalledWith("bitmex", 1);
    await vi.advanceTimersByTimeAsync(14_999);
    expect(h.pollsOf("bitmex")).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.pollsOf("bitmex")).toEqual([15_000]);
    // The answer changed nothing but its time: nothing to publish.
    expect(h.pushed).toEqual([]);
    rate = 0.0002;
    await vi.advanceTimersByTimeAsync(15_000);
    expect(h.pollsOf("bitmex")).toEqual([15_000, 30_000]);
    expect(h.pushed).toEqual([[{ ...xbt(), fundingRate: 0.0002, observedAt: T0 + 30_000, transport: "poll" }]]);
    await vi.advanceTimersByTimeAsync(45_000);
    expect(h.pollsOf("bitmex")).toEqual([15_000, 30_000, 45_000, 60_000, 75_000]);
    expect(h.status.message).toHaveBeenCalledWith("bitmex", T0 + 75_000);
    await h.feeds.close();
  });

  it("moves the next poll when a round refreshed the venue meanwhile", async () => {
    const h = harness();
    h.answers.set("bitmex", () => ok("bitmex", [xbt()]));
    h.feeds.onRound([ok("bitmex", [xbt()], T0)]);
    await vi.advanceTimersByTimeAsync(10_000);
    h.feeds.onRound([ok("bitmex", [xbt()], T0 + 10_000)]);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(h.pollsOf("bitmex")).toEqual([25_000]);
    await h.feeds.close();
  });

  it("polls a stalled stream's venue at its cadence, says why, and stops when the stream is live again", async () => {
    const h = harness();
    h.answers.set("binance", () => ok("binance", [btc({ markPrice: 105, observedAt: Date.now() }), eth()]));
    h.feeds.onRound([ok("binance", [btc(), eth()], T0)]);
    const stream = h.streams[0]!;
    stream.become("live");
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.pollsOf("binance")).toEqual([]);

    stream.become("stalled", "no market update for 5000 ms after a resubscribe");
    expect(h.status.transport).toHaveBeenLastCalledWith("binance", "poll", "stream stalled: no market update for 5000 ms after a resubscribe");
    // The last REST refresh is a minute old: the first poll goes at once, the next at the cadence.
    await vi.advanceTimersByTimeAsync(0);
    expect(h.pollsOf("binance")).toEqual([60_000]);
    expect(h.pushed).toEqual([[{ ...btc(), markPrice: 105, observedAt: T0 + 60_000, transport: "poll" }]]);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(h.pollsOf("binance")).toEqual([60_000, 70_000, 80_000]);

    stream.become("live");
    expect(h.status.transport).toHaveBeenLastCalledWith("binance", "stream");
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.pollsOf("binance")).toEqual([60_000, 70_000, 80_000]);

    stream.become("down", "closed 1006");
    expect(h.status.transport).toHaveBeenLastCalledWith("binance", "poll", "stream down: closed 1006");
    await vi.advanceTimersByTimeAsync(0);
    expect(h.pollsOf("binance")).toEqual([60_000, 70_000, 80_000, 140_000]);
    // One report per switch: a second "not live" state changes no transport.
    const reports = h.status.transport.mock.calls.length;
    stream.become("connecting");
    expect(h.status.transport.mock.calls.length).toBe(reports);
    await h.feeds.close();
  });

  it("keeps a stream message newer than a poll's answer", async () => {
    const h = harness();
    h.answers.set("binance", () => ok("binance", [btc({ markPrice: 99, observedAt: T0 + 61_000 })]));
    h.feeds.onRound([ok("binance", [btc()], T0)]);
    const stream = h.streams[0]!;
    stream.become("live");
    await vi.advanceTimersByTimeAsync(60_000);
    stream.frame([update("BTCUSDT", { markPrice: 120 }, T0 + 62_000)], T0 + 62_000);
    stream.become("stalled");
    await vi.advanceTimersByTimeAsync(0);
    expect(h.pollsOf("binance")).toEqual([60_000]);
    expect(h.pushed.map((batch) => batch.map((s) => [s.markPrice, s.transport]))).toEqual([[[120, "stream"]]]);
    await h.feeds.close();
  });

  it("polls once to refresh the markets silent on a live stream, and only those", async () => {
    const h = harness();
    h.answers.set("binance", () => ok("binance", [btc({ markPrice: 90, observedAt: Date.now() }), eth({ markPrice: 91, observedAt: Date.now() })]));
    h.feeds.onRound([ok("binance", [btc(), eth()], T0)]);
    const stream = h.streams[0]!;
    stream.become("live");
    await vi.advanceTimersByTimeAsync(STALL * 4);
    expect(h.pollsOf("binance")).toEqual([]);
    expect(stream.silenceAsked.every((ms) => ms === 3 * STALL)).toBe(true);

    stream.silent = ["ETHUSDT"];
    await vi.advanceTimersByTimeAsync(STALL);
    expect(h.pollsOf("binance")).toEqual([25_000]);
    expect(h.feeds.counts.silencePolls).toBe(1);
    expect(h.pushed).toEqual([[{ ...eth(), markPrice: 91, observedAt: T0 + 25_000, transport: "poll" }]]);
    // Still silent: not polled again before the silence window (3 × stallAfterMs) has passed.
    await vi.advanceTimersByTimeAsync(STALL * 2);
    expect(h.pollsOf("binance")).toEqual([25_000]);
    await vi.advanceTimersByTimeAsync(STALL);
    expect(h.pollsOf("binance")).toEqual([25_000, 40_000]);
    await h.feeds.close();
  });

  it("survives a failing poll and tries again at the cadence", async () => {
    const h = harness();
    h.feeds.onRound([ok("bitmex", [xbt()], T0)]);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(h.pollsOf("bitmex")).toEqual([15_000, 30_000]);
    expect(h.feeds.counts.failedPolls).toBe(2);
    expect(h.pushed).toEqual([]);
    await h.feeds.close();
  });
});

describe("LiveFeeds with a stream that cannot open", () => {
  it("polls the venue, says why, and tries again with the next round", async () => {
    const pushed: MarketSnapshot[][] = [];
    const status = { message: vi.fn(), reconnect: vi.fn(), transport: vi.fn(), published: vi.fn() } satisfies FeedStatusRecorder;
    let attempts = 0;
    const polls: number[] = [];
    const feeds = new LiveFeeds({
      protocols: { binance: protocol("binance") },
      sink: { push: (changed) => pushed.push([...changed]) },
      status,
      fetcher: async () => {
        polls.push(Date.now() - T0);
        return ok("binance", [btc({ fundingRate: 0.0007 })]);
      },
      openStream: () => {
        attempts++;
        throw new Error("no sockets for this plan");
      },
      cadenceMs: () => CADENCE,
    });
    expect(() => feeds.onRound([ok("binance", [btc()], T0)])).not.toThrow();
    expect(status.transport.mock.calls).toEqual([["binance", "poll", "stream could not open: no sockets for this plan"]]);
    await vi.advanceTimersByTimeAsync(CADENCE);
    expect(polls).toEqual([CADENCE]);
    expect(pushed.flat().map((s) => [s.fundingRate, s.transport])).toEqual([[0.0007, "poll"]]);
    feeds.onRound([ok("binance", [btc()])]);
    expect(attempts).toBe(2);
    await feeds.close();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("LiveFeeds and the venue budget", () => {
  it("makes a protocol's REST request for its socket URL wait for a token of the venue's budget", async () => {
    const order: string[] = [];
    let opened: LiveStreamOptions | undefined;
    const feeds = new LiveFeeds({
      protocols: { kucoinfutures: protocol("kucoinfutures") },
      sink: { push: () => undefined },
      status: { message: vi.fn(), reconnect: vi.fn(), transport: vi.fn(), published: vi.fn() },
      fetcher: async (venue) => ok(venue, []),
      openStream: (options) => {
        opened = options;
        return new FakeStream(options);
      },
      cadenceMs: () => CADENCE,
      fetch: async (input) => {
        order.push(`fetch ${String(input)}`);
        return new Response("{}");
      },
      takeToken: async (venue) => {
        order.push(`token ${venue}`);
      },
    });
    feeds.onRound([ok("kucoinfutures", [makeSnapshot({ exchange: "kucoinfutures", venueMarketId: "XBTUSDTM" })])]);
    await opened!.fetch!("https://api-futures.kucoin.com/api/v1/bullet-public", { method: "POST" });
    expect(order).toEqual(["token kucoinfutures", "fetch https://api-futures.kucoin.com/api/v1/bullet-public"]);
    await feeds.close();
  });
});

describe("LiveFeeds.close", () => {
  it("closes every stream and leaves no timer behind", async () => {
    const h = harness();
    h.answers.set("bitmex", () => ok("bitmex", [xbt()]));
    h.feeds.onRound([ok("binance", [btc()]), ok("bitmex", [xbt()])]);
    expect(vi.getTimerCount()).toBeGreaterThan(0);
    await h.feeds.close();
    expect(h.streams.every((s) => s.closed)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(h.polls).toEqual([]);
    // After close, rounds and late stream callbacks change nothing.
    h.feeds.onRound([ok("bitmex", [xbt()])]);
    h.streams[0]!.frame([update("BTCUSDT", { markPrice: 300 })]);
    expect(vi.getTimerCount()).toBe(0);
    expect(h.pushed).toEqual([]);
  });
});
