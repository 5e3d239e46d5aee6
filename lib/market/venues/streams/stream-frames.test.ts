import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  chunk,
  epochMs,
  FrameUpdates,
  isBareText,
  isoMs,
  nanosecondsMs,
  parseFrame,
  presentFields,
  socketsOf,
  subscribeFrames,
  timeField,
  unexpectedFrame,
  updateOf,
  updatesEvent,
  venueNumber,
} from "./stream-frames";
import type { StreamFields } from "./stream-protocol";

const render = (args: readonly string[]) => JSON.stringify({ op: "subscribe", args });

describe("subscribeFrames", () => {
  it("fills frames up to the item cap, in order", () => {
    expect(subscribeFrames(["a", "b", "c", "d", "e"], { maxItems: 2 }, render)).toEqual([render(["a", "b"]), render(["c", "d"]), render(["e"])]);
  });

  it("keeps every frame within the byte cap, however the items fall", () => {
    const items = Array.from({ length: 300 }, (_, i) => `tickers.${"X".repeat(i % 17)}${i}`);
    const frames = subscribeFrames(items, { maxItems: Number.MAX_SAFE_INTEGER, maxBytes: 500 }, render);
    expect(frames.length).toBeGreaterThan(1);
    for (const frame of frames) expect(Buffer.byteLength(frame)).toBeLessThanOrEqual(500);
    expect(frames.flatMap((frame) => (JSON.parse(frame) as { args: string[] }).args)).toEqual(items);
  });

  it("counts bytes, not characters", () => {
    const frames = subscribeFrames(["牛来USDT", "牛来USDT"], { maxItems: 10, maxBytes: Buffer.byteLength(render(["牛来USDT"])) }, render);
    expect(frames).toHaveLength(2);
  });

  it("gives an item too large for any frame a frame of its own rather than dropping it", () => {
    expect(subscribeFrames(["x".repeat(50), "y"], { maxItems: 10, maxBytes: 30 }, render)).toEqual([render(["x".repeat(50)]), render(["y"])]);
  });

  it("plans nothing for no items", () => {
    expect(subscribeFrames([], { maxItems: 10 }, render)).toEqual([]);
    expect(socketsOf("wss://x", [], 10, (ids) => [render(ids)])).toEqual([]);
  });
});

describe("socketsOf", () => {
  it("subscribes each market once, on sockets of at most the cap", () => {
    const plans = socketsOf("wss://x", ["a", "b", "c", "a", "d", "e"], 2, (ids) => [render(ids)]);
    expect(plans).toEqual([
      { url: "wss://x", subscribe: [render(["a", "b"])] },
      { url: "wss://x", subscribe: [render(["c", "d"])] },
      { url: "wss://x", subscribe: [render(["e"])] },
    ]);
  });
});

describe("FrameUpdates", () => {
  it("sets present keys only: absent stays absent, empty or null is none, garbage is reported", () => {
    const out = new FrameUpdates();
    const fields: StreamFields = {};
    out.set(fields, "fundingRate", "0.0001", "M");
    out.set(fields, "predictedFundingRate", "", "M");
    out.set(fields, "nextFundingAt", null, "M");
    out.set(fields, "markPrice", undefined, "M");
    out.set(fields, "indexPrice", "1,5", "M");
    out.push("M", fields, 7);
    expect(out.events()).toEqual([
      { kind: "updates", updates: [{ venueMarketId: "M", fields: { fundingRate: 0.0001, predictedFundingRate: null, nextFundingAt: null }, venueTime: 7 }] },
      { kind: "error", message: 'unreadable values: M indexPrice: "1,5"' },
    ]);
  });

  it("converts after reading, and drops an update that says nothing", () => {
    const out = new FrameUpdates();
    const fields: StreamFields = {};
    out.set(fields, "fundingRate", "0.25", "0", (value) => value * 2);
    out.push("0", fields, null);
    out.push("1", {}, null);
    expect(out.events()).toEqual([{ kind: "updates", updates: [{ venueMarketId: "0", fields: { fundingRate: 0.5 }, venueTime: null }] }]);
  });
});

describe("parseFrame", () => {
  it("reads text, UTF-8 binary and gzip binary alike", () => {
    expect(parseFrame('{"a":1}')).toEqual({ ok: true, text: '{"a":1}', value: { a: 1 } });
    expect(parseFrame(Buffer.from("[1]"))).toEqual({ ok: true, text: "[1]", value: [1] });
    expect(parseFrame(gzipSync('{"op":"ping"}'))).toEqual({ ok: true, text: '{"op":"ping"}', value: { op: "ping" } });
  });

  it("reports what is not JSON, or not a whole gzip member, as one error event", () => {
    expect(parseFrame("pong")).toEqual({ ok: false, event: { kind: "error", message: "not JSON: pong" } });
    const truncated = parseFrame(gzipSync('{"op":"notify","data":[]}').subarray(0, 12));
    expect(truncated).toEqual({ ok: false, event: { kind: "error", message: expect.stringMatching(/^undecodable binary frame: /) as unknown } });
  });

  it("keeps a long frame's message short", () => {
    const [event] = unexpectedFrame(`{"x":"${"y".repeat(500)}"}`);
    expect(event?.kind === "error" && event.message.length).toBe("unexpected frame: ".length + 201);
  });
});

describe("isBareText", () => {
  it("matches a bare text frame, text or binary, and never throws on a broken gzip", () => {
    expect(isBareText("pong", "pong")).toBe(true);
    expect(isBareText(Buffer.from("pong"), "pong")).toBe(true);
    expect(isBareText('{"op":"pong"}', "pong")).toBe(false);
    expect(isBareText(Buffer.from([0x1f, 0x8b, 0x00]), "pong")).toBe(false);
  });
});

describe("venueNumber and the time readers", () => {
  it("tells absent, none, a number and garbage apart", () => {
    expect(venueNumber(undefined)).toBeUndefined();
    expect(venueNumber(null)).toBeNull();
    expect(venueNumber("")).toBeNull();
    expect(venueNumber("0.000125")).toBe(0.000125);
    expect(venueNumber(" -1e-4 ")).toBe(-0.0001);
    expect(venueNumber(0)).toBe(0);
    for (const garbage of ["1,5", "n/a", "1e999", Number.NaN, Number.POSITIVE_INFINITY, {}, true]) expect(venueNumber(garbage)).toBeUndefined();
  });

  it("reads epoch ms, settlement times, ISO and nanosecond times", () => {
    expect(epochMs("1700000000123")).toBe(1700000000123);
    expect(epochMs(0)).toBeUndefined();
    expect(epochMs("soon")).toBeUndefined();
    expect(timeField("")).toBeNull();
    expect(timeField(null)).toBeNull();
    expect(timeField(undefined)).toBeUndefined();
    expect(timeField(1700000000000)).toBe(1700000000000);
    expect(isoMs("2021-12-18T20:00:00.000Z")).toBe(Date.UTC(2021, 11, 18, 20));
    expect(isoMs("not a date")).toBeUndefined();
    // 19 digits are past a double's exact range: the string is cut, not divided.
    expect(nanosecondsMs("1700000000123456789")).toBe(1700000000123);
    expect(nanosecondsMs(1_700_000_000_123_000_000)).toBe(1700000000123);
    expect(nanosecondsMs("")).toBeUndefined();
  });
});

describe("presentFields, updateOf, updatesEvent", () => {
  it("keeps only the fields with a value, and says a frame of no update is still a heartbeat", () => {
    const fields = presentFields({ fundingRate: 0.0001, markPrice: undefined, nextFundingAt: null });
    expect(fields).toStrictEqual({ fundingRate: 0.0001, nextFundingAt: null });
    expect(updateOf("BTC", fields, undefined)).toStrictEqual([{ venueMarketId: "BTC", fields, venueTime: null }]);
    expect(updateOf(undefined, fields, 1)).toEqual([]);
    expect(updateOf("BTC", {}, 1)).toEqual([]);
    expect(updatesEvent([])).toEqual([{ kind: "heartbeat" }]);
    expect(updatesEvent(updateOf("BTC", fields, 5))).toEqual([{ kind: "updates", updates: [{ venueMarketId: "BTC", fields, venueTime: 5 }] }]);
  });
});

describe("chunk", () => {
  it("cuts into runs of at most the size, in order", () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunk([], 3)).toEqual([]);
  });
});
