import { describe, expect, it } from "vitest";
import { latencySummary, SseIdReader } from "./sse-frames";

describe("SseIdReader", () => {
  it("reports each event frame's id once complete, across chunk boundaries, skipping comments and the preamble", () => {
    const ids: string[] = [];
    const reader = new SseIdReader((id) => ids.push(id));
    reader.push(Buffer.from("retry: 3000\n: connected\n\nid: evt_00000000"));
    expect(ids).toEqual([]);
    reader.push(Buffer.from("00000001\nevent: venue.stale\ndata: {}\n"));
    expect(ids).toEqual([]);
    reader.push(Buffer.from("\n: heartbeat\n\nid: evt_0000000000000002\nevent: venue.stale\ndata: {\"a\":1}\n\n"));
    expect(ids).toEqual(["evt_0000000000000001", "evt_0000000000000002"]);
  });

  it("finds a frame's end split between two chunks", () => {
    const ids: string[] = [];
    const reader = new SseIdReader((id) => ids.push(id));
    reader.push(Buffer.from("id: evt_0000000000000003\ndata: {}\n"));
    reader.push(Buffer.from("\nid: evt_0000000000000004\ndata: {}\n\n"));
    expect(ids).toEqual(["evt_0000000000000003", "evt_0000000000000004"]);
  });

  it("reads a body cut into chunks at every possible place alike", () => {
    const body = "retry: 3000\n: connected\n\nid: evt_0000000000000005\nevent: a\ndata: {}\n\n: heartbeat\n\nid: evt_0000000000000006\ndata: {}\n\n";
    for (let cut = 0; cut <= body.length; cut++) {
      for (let second = cut; second <= body.length; second++) {
        const ids: string[] = [];
        const reader = new SseIdReader((id) => ids.push(id));
        for (const part of [body.slice(0, cut), body.slice(cut, second), body.slice(second)]) reader.push(Buffer.from(part));
        expect(ids).toEqual(["evt_0000000000000005", "evt_0000000000000006"]);
      }
    }
  });
});

describe("latencySummary", () => {
  it("takes nearest-rank percentiles of the values, in any order", () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(latencySummary(values)).toEqual({ count: 100, p50: 50, p90: 90, p99: 99, max: 100 });
    expect(latencySummary([]).p99).toBeNaN();
  });
});
