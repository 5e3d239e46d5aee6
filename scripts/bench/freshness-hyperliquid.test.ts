import { afterEach, describe, expect, it, vi } from "vitest";
import { overrideStreamUrl } from "@/lib/market/ingest/ingest-config";
import { hyperliquidStream } from "@/lib/market/venues/streams/hyperliquid";
import type { StreamUpdate } from "@/lib/market/venues/streams/stream-protocol";
import { StreamConnection } from "@/lib/market/venues/streams/stream-connection";
import { startStreamPlayer, type Stamp, type StreamPlayer } from "./freshness-streams";

// The bench's Hyperliquid replay over a real socket: the player sends each coin's `activeAssetCtx`
// only on the socket that subscribed that coin, and the protocol reads every frame, stamped rate
// changes included, as that coin's update.

let player: StreamPlayer | undefined;
let connection: StreamConnection | undefined;
afterEach(async () => {
  await connection?.close();
  await player?.close();
});

describe("bench:freshness Hyperliquid replay", () => {
  it("plays each subscribed coin's context, and the protocol reads its stamped rates", async () => {
    const stamps: Stamp[] = [];
    player = await startStreamPlayer({
      markets: { hyperliquid: ["A0000", "A0001", "A0002"].map((id) => ({ id, rate: 0.0001, mark: 100 })) },
      rateChangesPerSecond: 20,
      // Each coin every 100 ms instead of every second.
      pushScale: 0.1,
      onStamp: (stamp) => stamps.push(stamp),
    });
    const url = player.url;
    const updates: StreamUpdate[] = [];
    const errors: string[] = [];
    // The bench names Hyperliquid's markets by coin (its streamKey); A0002 is not subscribed here.
    connection = new StreamConnection({
      protocol: hyperliquidStream,
      venueMarketIds: ["A0000", "A0001"],
      resolveUrl: (venueUrl) => overrideStreamUrl(url, venueUrl),
      onUpdates: (batch) => updates.push(...batch),
      onState: () => undefined,
      onError: (message) => errors.push(message),
    });
    connection.start();
    await vi.waitFor(() => expect(new Set(updates.map((u) => u.venueMarketId))).toEqual(new Set(["A0000", "A0001"])), { timeout: 10_000, interval: 20 });
    await vi.waitFor(() => expect(stamps.length).toBeGreaterThan(2), { timeout: 10_000, interval: 20 });
    // Every stamped change the player sent is a rate the protocol read for that coin.
    const sent = stamps.filter((stamp) => stamp.sentAt > 0);
    await vi.waitFor(() => {
      for (const stamp of sent) expect(updates.some((u) => u.venueMarketId === stamp.id && u.fields.fundingRate === stamp.rate)).toBe(true);
    }, { timeout: 5_000, interval: 20 });
    expect(sent.every((stamp) => stamp.venue === "hyperliquid" && stamp.id !== "A0002")).toBe(true);
    expect(updates.every((u) => u.fields.markPrice !== undefined && u.fields.indexPrice !== undefined)).toBe(true);
    expect(errors).toEqual([]);
  }, 30_000);
});
