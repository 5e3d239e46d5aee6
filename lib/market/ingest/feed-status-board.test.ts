import { describe, expect, it } from "vitest";
import { FeedStatusBoard, LATENCY_WINDOW_MINUTES } from "./feed-status-board";
import { bucketOf, bucketValue, HISTOGRAM_BUCKETS, quantile } from "./latency-histogram";

const T = Date.parse("2026-12-02T12:00:00.000Z");
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const figuresOf = (board: FeedStatusBoard, venue: string, now: number) => {
  const found = board.figures(now).find((f) => f.venue === venue);
  if (!found) throw new Error(`no figures for ${venue}`);
  return found;
};

describe("the latency histogram", () => {
  it("puts every latency in a bucket whose value is within 5 % of it", () => {
    for (const ms of [1, 1.5, 7, 99, 100, 250, 999, 12_345, 600_000]) {
      expect(Math.abs(bucketValue(bucketOf(ms)) - ms) / ms).toBeLessThan(0.05);
    }
    expect(bucketOf(0.2)).toBe(0);
    expect(bucketOf(-5)).toBe(0);
    expect(bucketOf(1e12)).toBe(HISTOGRAM_BUCKETS - 1);
  });

  it("reads a nearest-rank quantile, clamped to the samples' range, and nothing without samples", () => {
    const counts = new Uint32Array(HISTOGRAM_BUCKETS);
    for (let ms = 1; ms <= 100; ms++) counts[bucketOf(ms)]! += 1;
    expect(quantile(counts, 100, 0.5, 1, 100)).toBeCloseTo(50, -0.5);
    expect(quantile(counts, 100, 1, 1, 100)).toBeLessThanOrEqual(100);
    expect(quantile(counts, 0, 0.5, Infinity, -Infinity)).toBeNull();
  });
});

describe("FeedStatusBoard", () => {
  it("gives p50 and p99 of venue-to-publish latency over the last hour, forgetting older samples", () => {
    const board = new FeedStatusBoard();
    // An hour ago, slow publishing: 5 s each.
    for (let i = 0; i < 500; i++) board.published("binance", T - HOUR - 5_000 + i, T - HOUR + i);
    // In the last hour: 1..1000 ms, spread over its minutes.
    for (let ms = 1; ms <= 1000; ms++) {
      const at = T - 59 * MINUTE + ms * 3_000;
      board.published("binance", at - ms, at);
    }
    const now = T + 30 * MINUTE - 1;
    const early = figuresOf(board, "binance", T - 1);
    // Just before the hour ended, the slow samples still counted.
    expect(early.latencySamples).toBeGreaterThan(500);
    expect(early.latencyP99Ms).toBeGreaterThan(4_000);
    const f = figuresOf(board, "binance", now);
    const inWindow = Array.from({ length: 1000 }, (_, i) => i + 1).filter((ms) => T - 59 * MINUTE + ms * 3_000 >= Math.floor(now / MINUTE - 59) * MINUTE);
    expect(f.latencySamples).toBe(inWindow.length);
    const exact = (q: number) => inWindow[Math.ceil(q * inWindow.length) - 1]!;
    expect(Math.abs(f.latencyP50Ms! - exact(0.5)) / exact(0.5)).toBeLessThan(0.05);
    expect(Math.abs(f.latencyP99Ms! - exact(0.99)) / exact(0.99)).toBeLessThan(0.05);
    expect(figuresOf(board, "binance", T + 3 * HOUR)).toMatchObject({ latencyP50Ms: null, latencyP99Ms: null, latencySamples: 0 });
  });

  it("counts reconnects over the last 24 hours only", () => {
    const board = new FeedStatusBoard();
    board.reconnect("okx", T - 25 * HOUR);
    board.reconnect("okx", T - 23 * HOUR);
    board.reconnect("okx", T - 23 * HOUR + 1);
    board.reconnect("okx", T - MINUTE);
    expect(figuresOf(board, "okx", T).reconnects24h).toBe(3);
    expect(figuresOf(board, "okx", T + HOUR + MINUTE).reconnects24h).toBe(1);
    expect(figuresOf(board, "okx", T + 25 * HOUR).reconnects24h).toBe(0);
  });

  it("keeps the transport, its reason, the poll cadence and the last message", () => {
    const board = new FeedStatusBoard();
    board.message("bybit", T - 2_000);
    board.message("bybit", T - 5_000);
    expect(figuresOf(board, "bybit", T)).toMatchObject({ transport: "poll", transportReason: null, lastMessageAt: T - 2_000 });
    board.transport("bybit", "stream");
    expect(figuresOf(board, "bybit", T).transport).toBe("stream");
    board.transport("bybit", "poll", "no message for 30 s");
    board.pollInterval("bybit", 10_000);
    expect(figuresOf(board, "bybit", T)).toMatchObject({ transport: "poll", transportReason: "no message for 30 s", pollIntervalMs: 10_000 });
    expect(board.figures(T).map((f) => f.venue)).toEqual(["bybit"]);
  });

  it("gives a series of every minute of the last hour: messages and p99 per minute", () => {
    const board = new FeedStatusBoard();
    for (let i = 0; i < 30; i++) board.message("gate", T - 2 * MINUTE + i * 1_000);
    board.published("gate", T - 2 * MINUTE, T - 2 * MINUTE + 400);
    board.published("gate", T - 2 * MINUTE, T - 2 * MINUTE + 800);
    const { series } = figuresOf(board, "gate", T + 10);
    expect(series).toHaveLength(LATENCY_WINDOW_MINUTES);
    expect(series.at(-1)!.at).toBe(T);
    expect(series[0]!.at).toBe(T - 59 * MINUTE);
    const minute = series.find((m) => m.at === T - 2 * MINUTE)!;
    expect(minute.messages).toBe(30);
    expect(Math.abs(minute.p99Ms! - 800) / 800).toBeLessThan(0.05);
    expect(series.filter((m) => m.messages > 0)).toHaveLength(1);
    expect(series.filter((m) => m.p99Ms !== null)).toHaveLength(1);
  });

  it("holds bounded memory however many samples, minutes and reconnects it is given", () => {
    const board = new FeedStatusBoard();
    // Three days of a sample every second and a reconnect every minute.
    for (let s = 0; s < 3 * 24 * 3_600; s++) {
      const at = T + s * 1_000;
      board.published("htx", at - 250, at);
      board.message("htx", at);
      if (s % 60 === 0) board.reconnect("htx", at);
    }
    const now = T + 3 * 24 * 3_600 * 1_000;
    const retained = board.retained();
    expect(retained.histograms).toBeLessThanOrEqual(LATENCY_WINDOW_MINUTES);
    expect(retained.reconnectMinutes).toBeLessThanOrEqual(24 * 60);
    const f = figuresOf(board, "htx", now);
    expect(f.reconnects24h).toBe(24 * 60 - 1);
    expect(f.latencySamples).toBe(59 * 60);
    expect(Math.abs(f.latencyP50Ms! - 250) / 250).toBeLessThan(0.05);
  });

  it("drops a sample older than the minute its slot now holds instead of mixing it in", () => {
    const board = new FeedStatusBoard();
    board.published("dydx", T - 100, T);
    board.published("dydx", T - HOUR - 100, T - HOUR);
    expect(figuresOf(board, "dydx", T).latencySamples).toBe(1);
  });
});
