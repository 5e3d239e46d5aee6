import { describe, expect, it } from "vitest";
import { concatFrames, joinedFrames, sseFrame, type FeedEvent } from "./event-feed";
import type { PublicEvent } from "./event-types";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function feedEvent(sequence: number): FeedEvent {
  const event: PublicEvent = {
    id: `evt_${String(sequence).padStart(16, "0")}`,
    type: "venue.stale",
    mode: "live",
    created_at: "2026-11-21T15:59:00.000Z",
    data: { exchange: "okx", note: "é" },
  };
  return { sequence: BigInt(sequence), event, frame: encoder.encode(sseFrame(event)), mode: "LIVE", userId: null };
}

describe("joinedFrames", () => {
  it("is the batch's frames back to back, in order, multi-byte characters intact", () => {
    const batch = [feedEvent(1), feedEvent(2), feedEvent(3)];
    expect(decoder.decode(joinedFrames(batch))).toBe(batch.map((e) => sseFrame(e.event)).join(""));
  });

  it("is built once per batch: every subscriber of the same batch gets the same bytes", () => {
    const batch = [feedEvent(1), feedEvent(2)];
    expect(joinedFrames(batch)).toBe(joinedFrames(batch));
    expect(joinedFrames([...batch])).not.toBe(joinedFrames(batch));
  });
});

describe("concatFrames", () => {
  it("joins the frames a stream takes, and hands a single frame on as it is", () => {
    const [a, b] = [feedEvent(1), feedEvent(5)];
    expect(decoder.decode(concatFrames([a.frame, b.frame]))).toBe(sseFrame(a.event) + sseFrame(b.event));
    expect(concatFrames([a.frame])).toBe(a.frame);
  });
});
