import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenDatabase } from "@/lib/db/open-database";
import { liveRoundEvents } from "@/lib/events/live-round-events";
import type { FeedStatusRecorder } from "@/lib/market/ingest/feed-status";
import { readFeedStatus } from "@/lib/market/ingest/feed-status-store";
import { readIngestConfig } from "@/lib/market/ingest/ingest-config";
import type { IngestionScheduler } from "@/lib/market/ingest/ingestion-scheduler";
import type { LiveStream, LiveStreamOptions } from "@/lib/market/ingest/live-stream";
import { startIngestion } from "@/lib/market/ingest/start-ingestion";
import type { MarketSnapshot, VenueId } from "@/lib/market/model/types";
import type { VenueStreamProtocol } from "@/lib/market/venues/streams/stream-protocol";
import { pollCadenceMs } from "@/lib/market/venues/venue-request-limits";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { createTestDatabase } from "@/tests/support/test-database";
import { snapshotFetcher } from "./helpers/venue-fetchers";

// startIngestion's wiring of the live feeds: each published round reaches them, a streaming venue
// gets its stream with the round's markets, its messages reach the leg sink merged, and stopping
// ingestion closes the streams. The stream is a stand-in (no socket): what a real connection does
// is StreamConnection's own tests'.

let database: OpenDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
}, 120_000);
afterAll(async () => {
  await database?.close();
});

const binance: VenueStreamProtocol = { venue: "binance", sockets: () => [], stallAfterMs: 5_000, decode: () => [] };

function recordingStatus() {
  const calls: string[] = [];
  const status: FeedStatusRecorder = {
    message: (venue) => calls.push(`message ${venue}`),
    reconnect: (venue) => calls.push(`reconnect ${venue}`),
    transport: (venue, transport, reason) => calls.push(`transport ${venue} ${transport}${reason ? ` (${reason})` : ""}`),
    published: () => undefined,
  };
  return { status, calls };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function start(env: Record<string, string>, own: { status?: boolean } = {}) {
  const opened: { options: LiveStreamOptions; closed: boolean }[] = [];
  const pushed: MarketSnapshot[] = [];
  const { status, calls } = recordingStatus();
  const snapshots = (venue: VenueId) => (venue === "binance" || venue === "okx" ? [makeSnapshot({ exchange: venue, observedAt: Date.now() })] : []);
  const scheduler: IngestionScheduler = await startIngestion({
    db: database.db,
    target: { driver: "pglite", dataDir: null },
    config: readIngestConfig({ INGEST_INTERVAL_MS: "1000", ...env } as Record<string, string> as NodeJS.ProcessEnv),
    fetcher: snapshotFetcher(snapshots),
    events: liveRoundEvents(3_600_000),
    legSink: { push: (changed) => pushed.push(...changed) },
    feedStatus: own.status === false ? undefined : status,
    streamProtocols: { binance },
    openStream: (options) => {
      const entry = { options, closed: false };
      opened.push(entry);
      const stream: LiveStream = {
        state: "connecting",
        start: () => undefined,
        setMarkets: () => undefined,
        silentMarkets: () => [],
        close: async () => {
          entry.closed = true;
        },
      };
      return stream;
    },
  });
  return { scheduler, opened, pushed, calls };
}

describe("startIngestion's live feeds", () => {
  it("hand each published round to the feeds: streams open on its markets, their messages reach the sink, stopping closes them", async () => {
    const { scheduler, opened, pushed, calls } = await start({ INGEST_STREAMS: "on", VENUE_STREAM_URL_OVERRIDE: "ws://127.0.0.1:9" });
    try {
      await until(() => opened.length > 0);
      expect(opened).toHaveLength(1);
      const { options } = opened[0]!;
      expect(options.protocol.venue).toBe("binance");
      expect(options.venueMarketIds).toEqual(["BTCUSDT"]);
      // Pointed at the replay server, path and host kept.
      expect(options.resolveUrl?.("wss://fstream.binance.com/ws")).toBe("ws://127.0.0.1:9/fstream.binance.com/ws");
      expect(calls).toEqual(expect.arrayContaining(["transport binance poll (stream connecting)", "transport okx poll (no stream for this venue)"]));

      options.onState("live");
      options.onUpdates([{ venueMarketId: "BTCUSDT", fields: { fundingRate: 0.00042 }, venueTime: null }], Date.now());
      expect(pushed).toEqual([expect.objectContaining({ exchange: "binance", venueMarketId: "BTCUSDT", fundingRate: 0.00042, transport: "stream" })]);
      expect(calls).toContain("transport binance stream");
    } finally {
      await scheduler.stop();
    }
    expect(opened[0]!.closed).toBe(true);
  }, 120_000);

  it("stay off in a test run that does not point streams at a replay server", async () => {
    const published = () => database.db.ingestionRound.count({ where: { status: "published" } });
    const before = await published();
    const { scheduler, opened, calls } = await start({ INGEST_STREAMS: "on" });
    try {
      await until(async () => (await published()) > before);
    } finally {
      await scheduler.stop();
    }
    expect(opened).toEqual([]);
    expect(calls).toEqual([]);
  }, 120_000);

  it("store, without a recorder of the caller's, each venue's feed with the cadence it is polled at for the round's markets", async () => {
    const { scheduler, opened } = await start({ INGEST_STREAMS: "on", VENUE_STREAM_URL_OVERRIDE: "ws://127.0.0.1:9" }, { status: false });
    try {
      await until(() => opened.length > 0);
    } finally {
      // Stopping writes the board once more.
      await scheduler.stop();
    }
    const stored = await readFeedStatus(database.db);
    expect(stored.get("okx")).toMatchObject({ transport: "poll", pollIntervalMs: pollCadenceMs("okx", 1) });
    expect(stored.get("binance")).toMatchObject({ pollIntervalMs: pollCadenceMs("binance", 1) });
  }, 120_000);
});
