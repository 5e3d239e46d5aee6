import { afterEach, describe, expect, it, vi } from "vitest";
import { overrideStreamUrl } from "@/lib/market/ingest/ingest-config";
import { paradexStream } from "@/lib/market/venues/streams/paradex";
import { StreamConnection } from "@/lib/market/venues/streams/stream-connection";
import type { StreamUpdate } from "@/lib/market/venues/streams/stream-protocol";
import { startStreamPlayer, type Stamp, type StreamPlayer, VENUE_SPECS } from "./freshness-streams";

const paradex = VENUE_SPECS.paradex!;

describe("bench:freshness paradex frames", () => {
  it("decode through the protocol to the market, mark and exactly the stamped rate, for the bench's rates", () => {
    const channel = paradex.channels[0]!;
    // The bench's changes: ±(2e-4 + seq × 1e-10) to 12 significant digits, and the startup check's rate.
    const rates = [0.000123456789, ...[1, 7, 999_999, 123_456].flatMap((seq) => [1, -1].map((sign) => sign * Number((2e-4 + seq * 1e-10).toPrecision(12))))];
    for (const rate of rates) {
      const row = { id: "A0001-USD-PERP", rate, mark: 1234.567891, next: 0 };
      const events = paradexStream.decode(channel.frame([row], 1_790_000_000_123), 0);
      expect(events).toStrictEqual([
        { kind: "updates", updates: [{ venueMarketId: "A0001-USD-PERP", fields: { fundingRate: rate, markPrice: 1234.567891, indexPrice: 1234.567891 }, venueTime: 1_790_000_000_123 }] },
      ]);
    }
  });

  describe("played", () => {
    let player: StreamPlayer | undefined;
    let connection: StreamConnection | undefined;
    afterEach(async () => {
      await connection?.close();
      await player?.close();
    });

    it("sends every market's binary frame to the one markets_summary.ALL socket, each stamped change decoded", async () => {
      const ids = ["A0001-USD-PERP", "A0002-USD-PERP", "A0003-USD-PERP"];
      const stamps: Stamp[] = [];
      player = await startStreamPlayer({
        markets: { paradex: ids.map((id) => ({ id, rate: 0.0001, mark: 100 })) },
        rateChangesPerSecond: 20,
        // Every market once every 100 ms.
        pushScale: 0.1,
        onStamp: (stamp) => stamps.push(stamp),
      });
      const seen: StreamUpdate[] = [];
      const url = player.url;
      connection = new StreamConnection({
        protocol: paradexStream,
        venueMarketIds: ids,
        resolveUrl: (venueUrl) => overrideStreamUrl(url, venueUrl),
        onUpdates: (updates) => seen.push(...updates),
        onState: () => undefined,
      });
      connection.start();
      await vi.waitFor(() => expect(new Set(seen.map((u) => u.venueMarketId))).toEqual(new Set(ids)), { timeout: 10_000, interval: 20 });
      await vi.waitFor(() => expect(stamps.length).toBeGreaterThan(2), { timeout: 10_000, interval: 20 });
      const changes = stamps.slice(0, 3);
      expect(changes.every((stamp) => stamp.venue === "paradex" && ids.includes(stamp.id))).toBe(true);
      await vi.waitFor(() => {
        for (const stamp of changes) expect(seen.some((u) => u.venueMarketId === stamp.id && u.fields.fundingRate === stamp.rate), `${stamp.id} ${stamp.rate}`).toBe(true);
      }, { timeout: 10_000, interval: 20 });
      expect(player.counts()).toEqual([{ venue: "paradex", frames: expect.any(Number), sockets: 1 }]);
    });
  });
});
