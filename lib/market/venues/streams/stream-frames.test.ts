import { describe, expect, it } from "vitest";
import { FrameUpdates, parseFrame, socketsOf, subscribeFrames } from "./stream-frames";
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
  it("reads text and binary alike and reports what is not JSON", () => {
    expect(parseFrame('{"a":1}')).toEqual({ value: { a: 1 } });
    expect(parseFrame(Buffer.from("[1]"))).toEqual({ value: [1] });
    expect(parseFrame("pong")).toEqual({ error: { kind: "error", message: "not JSON: pong" } });
  });
});
