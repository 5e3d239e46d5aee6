import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { overrideStreamUrl } from "@/lib/market/ingest/ingest-config";
import { STREAM_PROTOCOLS } from "@/lib/market/venues/streams/stream-protocols";
import type { Stamp } from "./freshness-streams";
import { startStreamPlayerThread } from "./stream-player-thread";

// The stream player on its own thread, as bench:freshness runs it: a venue's socket subscribed
// through the thread's server receives that venue's frames; the stamps of its rate changes reach
// this thread, on the bench's clock, each carried by a frame the socket received; a changed
// `changing` holds for every stamp after it resolves; close ends the thread and its sockets.

const protocol = STREAM_PROTOCOLS.bybit!;
const markets = { bybit: [{ id: "BTCUSDT", rate: 1e-4, mark: 100_000 }, { id: "ETHUSDT", rate: -1e-4, mark: 3_000 }] };

describe("the stream player thread", () => {
  it("plays a subscribed venue's frames, stamps its changes on this thread, follows `changing`, and ends with close", async () => {
    const stamps: Stamp[] = [];
    const player = await startStreamPlayerThread({ markets, rateChangesPerSecond: 20, pushScale: 1, onStamp: (stamp) => stamps.push(stamp) });
    /** Each frame's rate per market, as the venue's protocol decodes it. */
    const told: { id: string; rate: number | null | undefined }[] = [];
    let socket: WebSocket | undefined;
    try {
      expect(await player.counts()).toEqual([{ venue: "bybit", frames: 0, sockets: 0, states: 0 }]);
      const [plan] = protocol.sockets(markets.bybit.map((m) => m.id));
      socket = new WebSocket(overrideStreamUrl(player.url, plan!.url));
      socket.on("message", (data: Buffer) => {
        for (const event of protocol.decode(String(data), Date.now())) {
          if (event.kind === "updates") for (const update of event.updates) told.push({ id: update.venueMarketId, rate: update.fields.fundingRate });
        }
      });
      await new Promise((resolve, reject) => socket!.once("open", resolve).once("error", reject));
      for (const frame of plan!.subscribe) socket.send(frame);
      await expect.poll(() => stamps.length, { timeout: 10_000, interval: 20 }).toBeGreaterThan(0);

      // Once `changing([])` resolves no change is stamped, while the frames keep coming.
      await player.changing([]);
      const held = stamps.length;
      const frames = told.length;
      await expect.poll(() => told.length, { timeout: 10_000, interval: 20 }).toBeGreaterThan(frames + 20);
      expect(stamps).toHaveLength(held);

      await player.changing(["bybit"]);
      await expect.poll(() => stamps.length, { timeout: 10_000, interval: 20 }).toBeGreaterThan(held);
      const stamp = stamps[held]!;
      expect(stamp.venue).toBe("bybit");
      // sentAt is an epoch time on this thread's clock.
      expect(Math.abs(stamp.sentAt - (performance.timeOrigin + performance.now()))).toBeLessThan(5_000);
      await expect.poll(() => told.some((t) => t.id === stamp.id && t.rate === stamp.rate), { timeout: 10_000, interval: 20 }).toBe(true);

      const [counts] = await player.counts();
      expect(counts).toMatchObject({ venue: "bybit", sockets: 1 });
      expect(counts!.frames).toBeGreaterThanOrEqual(frames + 20);
    } finally {
      const ended = new Promise((resolve) => (socket && socket.readyState !== WebSocket.CLOSED ? socket.once("close", resolve) : resolve(undefined)));
      await player.close();
      await ended;
    }
    await expect(player.counts()).rejects.toThrow(/closed/);
  });
});
