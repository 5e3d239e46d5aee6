import { describe, expect, it } from "vitest";
import { latencySummary, SseIdReader } from "./sse-frames";

describe("SseIdReader", () => {
  it("reports each event frame's sequence once complete, across chunk boundaries, skipping comments and the preamble", () => {
    const ids: number[] = [];
    const reader = new SseIdReader((id) => ids.push(id));
    reader.push(Buffer.from("retry: 3000\n: connected\n\nid: evt_00000000"));
    expect(ids).toEqual([]);
    reader.push(Buffer.from("00000001\nevent: venue.stale\ndata: {}\n"));
    expect(ids).toEqual([]);
    reader.push(Buffer.from("\n: heartbeat\n\nid: evt_0000000000000002\nevent: venue.stale\ndata: {\"a\":1}\n\n"));
    expect(ids).toEqual([1, 2]);
  });

  it("finds a frame's end split between two chunks", () => {
    const ids: number[] = [];
    const reader = new SseIdReader((id) => ids.push(id));
    reader.push(Buffer.from("id: evt_0000000000000003\ndata: {}\n"));
    reader.push(Buffer.from("\nid: evt_0000000000000004\ndata: {}\n\n"));
    expect(ids).toEqual([3, 4]);
  });

  it("reads a body cut into chunks at every possible place alike", () => {
    const body = "retry: 3000\n: connected\n\nid: evt_0000000000000005\nevent: a\ndata: {}\n\n: heartbeat\n\nid: evt_0000012345678906\ndata: {}\n\n";
    for (let cut = 0; cut <= body.length; cut++) {
      for (let second = cut; second <= body.length; second++) {
        const ids: number[] = [];
        const reader = new SseIdReader((id) => ids.push(id));
        for (const part of [body.slice(0, cut), body.slice(cut, second), body.slice(second)]) reader.push(Buffer.from(part));
        expect(ids).toEqual([5, 12345678906]);
      }
    }
  });

  it("reads the raw HTTP response: its head and chunked encoding's size lines are passed over", () => {
    const frames = ["id: evt_0000000000000007\nevent: a\ndata: {\"id\":\"evt_0000000000000007\"}\n\n", ": heartbeat\n\n", "id: evt_0000000000000008\ndata: {}\n\n"];
    const body = frames.map((f) => `${f.length.toString(16)}\r\n${f}\r\n`).join("");
    const raw = `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n${body}`;
    for (let cut = 0; cut <= raw.length; cut++) {
      const ids: number[] = [];
      const reader = new SseIdReader((id) => ids.push(id));
      reader.push(Buffer.from(raw.slice(0, cut)));
      reader.push(Buffer.from(raw.slice(cut)));
      expect(ids).toEqual([7, 8]);
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
